import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnServers } from '../../../src/drive/blossom/own-servers.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import type { TestKey } from '../../helpers/nostr.js';
import { register } from '../../helpers/relay-station.js';
import { blossomToken, nostrAuth, sha256Hex } from './requests.js';

/**
 * Finding (issue 43): a token's `server` tags were judged against the request's own Host (and, through a
 * trusted proxy, X-Forwarded-Host), so a delete or upload token a user gave to another Blossom server worked
 * here when the request named that server. Tags now name the station's own origins or nothing.
 */
const OTHER = 'cdn.other.example';
const FORGED_HOSTS: Record<string, Record<string, string>> = {
  'Host naming the other server': { host: OTHER },
  'X-Forwarded-Host naming it': { 'x-forwarded-host': OTHER, 'x-forwarded-proto': 'https' },
  both: { host: OTHER, 'x-forwarded-host': OTHER },
};

/** An app on temp directories behind a trusted proxy (127.0.0.1), with Alice registered. */
function station(env: Record<string, string>) {
  let t: TestApp;
  let alice: TestKey;
  const setup = {
    upload: (bytes: Buffer, server: string[] | undefined, headers: Record<string, string> = {}) => {
      const token = blossomToken(alice, { x: [sha256Hex(bytes)], server });
      const authorization = nostrAuth(token);
      const type = { 'content-type': 'application/octet-stream' };
      return t.app.inject({
        method: 'PUT',
        url: '/upload',
        payload: bytes,
        headers: { authorization, ...type, ...headers },
      });
    },
    remove: (sha256: string, server: string[] | undefined, headers: Record<string, string> = {}) => {
      const token = blossomToken(alice, { verb: 'delete', x: [sha256], server });
      return t.app.inject({
        method: 'DELETE',
        url: `/${sha256}`,
        headers: { authorization: nostrAuth(token), ...headers },
      });
    },
    /** Whether Alice's drive still holds the blob. */
    holds: (sha256: string) => t.app.blobs.heldBy(alice.hex, sha256) !== undefined,
  };
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1', PUBLISH_FILE_METADATA: 'false', ...env } });
    alice = await register(t, 'alice@example.org');
  });
  afterAll(() => t.close());
  return setup;
}

function expectRefused(response: {
  statusCode: number;
  body: string;
  json(): unknown;
  headers: Record<string, unknown>;
}) {
  expect(response.statusCode, response.body).toBe(401);
  expect(response.json()).toEqual({ detail: expect.any(String), code: 'BLOSSOM_AUTH_WRONG_SERVER' });
  expect(response.headers['x-reason']).toBeTruthy();
}

describe.each([
  ['without PUBLIC_URL', {}, ['127.0.0.1', 'localhost', hostname().toLowerCase()]],
  ['with PUBLIC_URL', { PUBLIC_URL: 'https://station.example' }, ['station.example']],
])('Blossom server tags %s', (_what, env: Record<string, string>, own: string[]) => {
  const s = station(env);

  it.each(Object.entries(FORGED_HOSTS))(
    'refuses a delete token for another server whatever the request says (%s): the blob stays',
    async (_how, headers) => {
      const bytes = randomBytes(2000);
      expect((await s.upload(bytes, undefined)).statusCode).toBe(201);
      expectRefused(await s.remove(sha256Hex(bytes), [OTHER], headers));
      expect(s.holds(sha256Hex(bytes))).toBe(true);
    },
  );

  it.each(Object.entries(FORGED_HOSTS))(
    'refuses an upload token for another server (%s): nothing is kept',
    async (_how, headers) => {
      const bytes = randomBytes(2000);
      expectRefused(await s.upload(bytes, [OTHER], headers));
      expect(s.holds(sha256Hex(bytes))).toBe(false);
    },
  );

  it('takes tokens naming the station’s own names, alone or beside another server', async () => {
    for (const name of own) {
      const bytes = randomBytes(2000);
      const uploaded = await s.upload(bytes, [OTHER, name.toUpperCase()]);
      expect(uploaded.statusCode, `${name}: ${uploaded.body}`).toBe(201);
      const removed = await s.remove(sha256Hex(bytes), [name]);
      expect(removed.statusCode, `${name}: ${removed.body}`).toBe(200);
      expect(s.holds(sha256Hex(bytes))).toBe(false);
    }
  });

  it('takes tokens without a server tag as before, whatever the Host', async () => {
    const bytes = randomBytes(2000);
    expect((await s.upload(bytes, undefined, { host: OTHER })).statusCode).toBe(201);
    expect((await s.remove(sha256Hex(bytes), undefined, { host: OTHER })).statusCode).toBe(200);
  });
});

describe('Blossom server tags with PUBLIC_URL set', () => {
  const s = station({ PUBLIC_URL: 'https://station.example' });

  it('refuses loopback names: PUBLIC_URL says what the station is called', async () => {
    expectRefused(await s.upload(randomBytes(2000), ['127.0.0.1']));
    expectRefused(await s.upload(randomBytes(2000), ['localhost'], { host: 'localhost' }));
  });
});

describe('OwnServers: the forms a server tag takes', () => {
  const local = new OwnServers([], () => 54321, [
    'localhost',
    '127.0.0.1',
    '::1',
    'astroport',
    '192.168.1.20',
  ]);
  const published = new OwnServers(['https://station.example', 'http://lan.example:8080/zen'], () => 54321, [
    'localhost',
  ]);

  it.each([
    ['127.0.0.1', true],
    ['LOCALHOST', true],
    ['127.0.0.2', true],
    ['::1', true],
    ['[::1]', true],
    ['[::1]:54321', true],
    ['astroport', true],
    ['192.168.1.20:54321', true],
    ['http://192.168.1.20:54321/', true],
    ['127.0.0.1:9999', false],
    ['http://127.0.0.1', false],
    ['127.attacker.example', false],
    ['cdn.other.example', false],
    ['localhost/upload', false],
    ['', false],
  ])('without PUBLIC_URL, %j names the station: %s', (tag, expected) => {
    expect(local.names(tag)).toBe(expected);
  });

  it.each([
    ['station.example', true],
    ['https://station.example/', true],
    ['station.example:443', true],
    ['lan.example', true],
    ['lan.example:8080', true],
    ['http://lan.example:8080', true],
    ['http://station.example', false],
    ['station.example:8443', false],
    ['https://lan.example', false],
    ['localhost', false],
    ['cdn.other.example', false],
  ])('with PUBLIC_URL, %j names the station: %s', (tag, expected) => {
    expect(published.names(tag)).toBe(expected);
  });
});
