import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Conflict,
  DependencyError,
  Forbidden,
  InvalidInput,
  NotFound,
  StationError,
  TooLarge,
  TryLater,
  Unauthenticated,
} from '../../src/errors.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { AnswerWithStatus } from '../../src/http/error-status.js';

/** Errors say what went wrong, never how to answer it: the HTTP layer gives each code its status and headers. */
describe('errors by meaning, answered by the HTTP layer', () => {
  let app: FastifyInstance;
  const thrown: Record<string, () => Error> = {
    invalid: () =>
      new InvalidInput('INVALID_NPUB', {
        en: 'npub must be a bech32 npub or 64 hex characters.',
        fr: 'npub doit être une npub ou 64 caractères hexadécimaux.',
      }),
    unauthenticated: () =>
      new Unauthenticated('AUTH_REQUIRED', {
        en: 'Send an Authorization: Nostr header.',
        fr: 'Envoyez un en-tête Authorization: Nostr.',
      }),
    forbidden: () =>
      new Forbidden('NOT_REGISTERED', {
        en: 'This key has no user directory on this station.',
        fr: 'Cette clé n’a pas de dossier utilisateur sur cette station.',
      }),
    missing: () =>
      new NotFound('FILE_NOT_FOUND', {
        en: 'There is no such file in the drive.',
        fr: 'Ce fichier n’existe pas dans le uDRIVE.',
      }),
    conflict: () =>
      new Conflict('USER_EXISTS', {
        en: 'a@example.org is already registered.',
        fr: 'a@example.org est déjà inscrite.',
      }),
    large: () =>
      new TooLarge('QUOTA_EXCEEDED', {
        en: 'The file does not fit in the drive quota of 1 MB.',
        fr: 'Le fichier ne tient pas dans le quota de 1 Mo.',
      }),
    later: () =>
      new TryLater(
        'STATION_BUSY',
        {
          en: 'The station is receiving 3 uploads already; retry in 5 s.',
          fr: 'La station reçoit déjà 3 envois ; réessayez dans 5 s.',
        },
        5,
      ),
    busy: () =>
      new TryLater('DRIVE_BUSY', {
        en: 'The drive is busy with another change; try again shortly.',
        fr: 'Le uDRIVE est occupé ; réessayez dans un instant.',
      }),
    down: () =>
      new DependencyError('indexer', 'down', {
        en: 'The Ğ1 indexer is unreachable.',
        fr: 'L’indexeur Ğ1 est injoignable.',
      }),
    failed: () =>
      new DependencyError('mail', 'failed', {
        en: 'The mail server refused the message.',
        fr: 'Le serveur de mail a refusé le message.',
      }),
    slow: () =>
      new DependencyError('content store', 'timeout', {
        en: 'The Kubo node did not answer in time.',
        fr: 'Le nœud Kubo n’a pas répondu à temps.',
      }),
    broken: () =>
      new StationError('CID_MISMATCH', {
        en: 'The content store computed another CID.',
        fr: 'Le stockage a calculé un autre CID.',
      }),
    rewritten: () =>
      new AnswerWithStatus(
        404,
        new Forbidden('NOT_REGISTERED', { en: 'Not known here.', fr: 'Inconnu ici.' }),
      ),
  };

  beforeAll(async () => {
    app = Fastify();
    registerErrorHandling(app);
    app.get<{ Params: { name: string } }>('/throw/:name', async (request) => {
      throw thrown[request.params.name]!();
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['invalid', 400, 'INVALID_NPUB'],
    ['unauthenticated', 401, 'AUTH_REQUIRED'],
    ['forbidden', 403, 'NOT_REGISTERED'],
    ['missing', 404, 'FILE_NOT_FOUND'],
    ['conflict', 409, 'USER_EXISTS'],
    ['large', 413, 'QUOTA_EXCEEDED'],
    ['later', 503, 'STATION_BUSY'],
    ['busy', 503, 'DRIVE_BUSY'],
    ['down', 503, 'INDEXER_DOWN'],
    ['failed', 502, 'MAIL_FAILED'],
    ['slow', 504, 'CONTENT_STORE_TIMEOUT'],
    ['broken', 500, 'CID_MISMATCH'],
    ['rewritten', 404, 'NOT_REGISTERED'],
  ])('%s → %i %s, as {detail, code} with X-Reason', async (name, status, code) => {
    const response = await app.inject({ url: `/throw/${name}` });
    expect(response.statusCode).toBe(status);
    const detail = thrown[name]!().message;
    expect(response.json()).toEqual({ detail, code });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['x-reason']).toBe(detail.replace(/[^\x20-\x7e]/g, '?'));
    // The same error for a client that prefers French: the detail changes, the code and status never do.
    const french = await app.inject({
      url: `/throw/${name}`,
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    expect(french.statusCode).toBe(status);
    expect(french.json()).toEqual({ detail: (thrown[name]!() as StationError).detail.fr, code });
    expect(french.headers['x-reason']).toBe(response.headers['x-reason']);
  });

  it('asks for Nostr credentials on a 401 only', async () => {
    expect((await app.inject({ url: '/throw/unauthenticated' })).headers['www-authenticate']).toBe('Nostr');
    expect((await app.inject({ url: '/throw/forbidden' })).headers['www-authenticate']).toBeUndefined();
  });

  it('says when to come back when the error knows, and only then', async () => {
    expect((await app.inject({ url: '/throw/later' })).headers['retry-after']).toBe('5');
    expect((await app.inject({ url: '/throw/busy' })).headers['retry-after']).toBeUndefined();
    expect((await app.inject({ url: '/throw/down' })).headers['retry-after']).toBeUndefined();
  });

  it('keeps the dependency and what happened to it on the error, for callers that decide by meaning', () => {
    expect(thrown.slow!()).toMatchObject({ dependency: 'content store', kind: 'timeout' });
    expect(thrown.later!()).toMatchObject({ retryAfterSeconds: 5, name: 'TryLater' });
  });
});
