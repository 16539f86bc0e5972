import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { multipart, register, type Owner } from '../helpers/multipart.js';
import { nip98Header } from '../helpers/nostr.js';
import { cookieFile, cookieLine } from '../cookies/fixtures.js';

type Asked = {
  method: 'GET' | 'POST';
  url: string;
  payload?: string | Buffer;
  headers?: Record<string, string>;
};

/**
 * docs/api-contract.md §6: every detail exists in French and English, chosen by `?lang=` or
 * `Accept-Language`; the code and the status never change with the language, and a client that asks for
 * neither keeps English.
 */
describe('error details in both languages', () => {
  let t: TestApp;
  let alice: Owner;
  beforeAll(async () => {
    t = await buildTestApp();
    alice = await register(t, 'alice@example.org');
  });
  afterAll(() => t.close());

  /** A cookie upload signed by Alice (NIP-98 over the whole body), as the cookie page sends it. */
  const cookieUpload = (content: string): Asked => {
    const { body, contentType } = multipart([
      { name: 'npub', value: alice.npub },
      { name: 'file', value: content, filename: 'cookies.txt', type: 'text/plain' },
    ]);
    const authorization = nip98Header(alice, 'http://localhost/api/fileupload', 'POST', { body });
    return {
      method: 'POST',
      url: '/api/fileupload',
      payload: body,
      headers: { 'content-type': contentType, authorization },
    };
  };

  const unsignedDriveUpload = (): Asked => {
    const { body, contentType } = multipart([
      { name: 'file', value: 'hello', filename: 'a.txt', type: 'text/plain' },
    ]);
    return { method: 'POST', url: '/api/upload', payload: body, headers: { 'content-type': contentType } };
  };

  const json = (body: unknown): Pick<Asked, 'payload' | 'headers'> => ({
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

  const cases: Array<{
    name: string;
    asked: () => Asked;
    status: number;
    code: string;
    en: RegExp;
    fr: RegExp;
  }> = [
    {
      name: 'an e-mail already registered',
      asked: () => ({ method: 'POST', url: '/g1nostr', ...json({ email: 'alice@example.org' }) }),
      status: 409,
      code: 'USER_EXISTS',
      en: /^alice@example\.org is already registered\.$/,
      fr: /^L’adresse alice@example\.org est déjà inscrite sur cette station\.$/,
    },
    {
      name: 'a cookie file of several domains',
      asked: () => cookieUpload(cookieFile([cookieLine('.youtube.com'), cookieLine('.leboncoin.fr')])),
      status: 400,
      code: 'MULTI_DOMAIN_COOKIES',
      en: /^Multi-domain cookie files are not supported: .* Detected domains: /,
      fr: /^Les fichiers de cookies de plusieurs domaines ne sont pas acceptés : .* Domaines détectés : /,
    },
    {
      name: 'a body that fails the route’s schema',
      asked: () => ({ method: 'POST', url: '/api/upload_from_drive', ...json({ npub: alice.npub }) }),
      status: 400,
      code: 'VALIDATION_FAILED',
      en: /^Invalid body: body must have required property 'ipfs_link'$/,
      fr: /^Corps de la requête invalide : body requiert la propriété ipfs_link$/,
    },
    {
      name: 'an unknown address',
      asked: () => ({ method: 'GET', url: '/no/such/route' }),
      status: 404,
      code: 'NOT_FOUND',
      en: /^No route for GET \/no\/such\/route$/,
      fr: /^Aucune route pour GET \/no\/such\/route$/,
    },
    {
      name: 'a drive upload without its owner',
      asked: unsignedDriveUpload,
      status: 401,
      code: 'AUTH_REQUIRED',
      en: /^Uploads need their owner before the file: /,
      fr: /^Un envoi doit connaître son propriétaire avant le fichier : /,
    },
    {
      name: 'a body over the route’s limit',
      asked: () => ({
        method: 'POST',
        url: '/api/upload_from_drive',
        ...json({ ipfs_link: 'x'.repeat(1024 * 1024 + 10) }),
      }),
      status: 413,
      code: 'BODY_TOO_LARGE',
      en: /^Request body is too large$/,
      fr: /^Le corps de la requête est trop volumineux\.$/,
    },
  ];

  const send = (asked: Asked, language: Record<string, string>) =>
    t.app.inject({ ...asked, headers: { ...asked.headers, ...language } });

  it.each(cases)('$name: French or English detail, the same code', async (c) => {
    // Each request built anew: a NIP-98 event serves once.
    const english = await send(c.asked(), { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' });
    const french = await send(c.asked(), { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' });
    const unsaid = await send(c.asked(), {});
    for (const response of [english, french, unsaid]) {
      expect(response.statusCode).toBe(c.status);
      expect(response.json().code).toBe(c.code);
    }
    expect(english.json().detail).toMatch(c.en);
    expect(french.json().detail).toMatch(c.fr);
    // Scripts and UPlanet tools that say nothing keep reading English; X-Reason stays English (Latin-1).
    expect(unsaid.json().detail).toBe(english.json().detail);
    expect(french.headers['x-reason']).toBe(english.headers['x-reason']);
  });

  it('lets ?lang= win over Accept-Language, and ranks Accept-Language by q', async () => {
    const asked = { method: 'GET', url: '/no/such/route' } as const;
    const detail = async (url: string, header?: string) =>
      (await t.app.inject({ ...asked, url, headers: header ? { 'accept-language': header } : {} })).json()
        .detail as string;
    expect(await detail('/no/such/route?lang=fr', 'en')).toMatch(/^Aucune route/);
    expect(await detail('/no/such/route?lang=en', 'fr')).toMatch(/^No route/);
    expect(await detail('/no/such/route', 'de-DE, en;q=0.4, fr;q=0.8')).toMatch(/^Aucune route/);
    expect(await detail('/no/such/route', 'fr;q=0, en;q=0.1')).toMatch(/^No route/);
    expect(await detail('/no/such/route', 'de, es')).toMatch(/^No route/);
  });

  it('answers what Node’s parser refuses in the language the request asked for', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const raw = (language: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(
            `GET /health HTTP/1.1\r\nHost: x\r\nAccept-Language: ${language}\r\n` +
              `X-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
          ),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
    const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body(await raw('fr'))).toEqual({
      detail: 'Les en-têtes de la requête sont trop volumineux.',
      code: 'HEADERS_TOO_LARGE',
    });
    expect(body(await raw('en'))).toEqual({
      detail: 'The request headers are too large.',
      code: 'HEADERS_TOO_LARGE',
    });
  });

  it('gives the success message the pages show in the language asked for', async () => {
    const asked = cookieUpload(cookieFile([cookieLine('.youtube.com')]));
    const french = await send(asked, { 'accept-language': 'fr' });
    expect(french.statusCode).toBe(200);
    expect(french.json().message).toBe(
      'Fichier de cookies de youtube.com enregistré (1 cookie) ; il remplace le précédent pour ce domaine.',
    );
    const again = await send(cookieUpload(cookieFile([cookieLine('.youtube.com')])), {});
    expect(again.json().message).toBe(
      'Cookie file for youtube.com saved (1 cookie); it replaces any previous one for this domain.',
    );
  });
});
