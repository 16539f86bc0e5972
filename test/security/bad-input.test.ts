import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, parameterCases, render, type Case, type GoodValues } from './corpus-openapi.js';
import { pathCases, requestCases } from './corpus-requests.js';
import { corpusDir, startStation, type Station } from './corpus-station.js';
import { asksForPage, contractViolation, runPool, type WireResponse } from './corpus-wire.js';

/**
 * Bad-input corpus generated from the OpenAPI document: every operation gets wrong values for each of its
 * parameters (path, query, Authorization, JSON/form body fields, multipart fields and file name) and
 * request-level malformations, sent on a real socket to the real station, unauthenticated and, for the
 * routes that answer 401, with a valid NIP-98 header of a registered user so the input reaches the
 * validators behind authentication. Every answer must be below 500 with a `{detail, code}` JSON body on 4xx,
 * and the process must keep answering `/health` (checked after every 100 requests and at the end).
 */

/** No route of the station legitimately answers 5xx to these inputs (the indexer is up, limits are lifted). */
const ALLOWED_5XX = undefined;

/** Requests in flight: enough to keep both cores busy while some requests wait on file system calls. */
const CONCURRENCY = 12;

describe('bad-input corpus from the OpenAPI document', () => {
  let station: Station;
  let home: Awaited<ReturnType<typeof corpusDir>>;
  let cases: Case[];
  const failures: string[] = [];
  const answered: { c: Case; response: WireResponse | null }[] = [];
  let healthChecks = 0;

  const health = async () => {
    const response = await station.send({ label: 'health', method: 'GET', target: '/health' });
    expect(response?.status, 'GET /health').toBe(200);
    healthChecks += 1;
  };

  const sendCase = async (c: Case) => {
    const headers = [...c.headers];
    if (c.sign && typeof c.target === 'string' && !headers.some(([k]) => k === 'Authorization'))
      headers.push(['Authorization', station.auth(c.method, c.target, c.body)]);
    const response = await station.send({ ...c, headers });
    answered.push({ c, response });
    if (response === null && c.mayClose) return;
    const page = asksForPage(c.method, c.target);
    const problem = contractViolation(response, { method: c.method, allow5xx: ALLOWED_5XX, page });
    if (problem) failures.push(`${c.label}: ${problem}`);
  };

  beforeAll(async () => {
    home = await corpusDir('bad-input-');
    station = await startStation({ home: home.path });
    const doc = station.t.app.swagger() as Parameters<typeof operationsOf>[0];
    const values: GoodValues = {
      npub: station.member.npub,
      pubkey: station.member.hex,
      email: station.member.email,
      g1pub: 'g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9',
      lat: '48.85',
      lon: '2.35',
      deg: '1',
      limit: '10',
      year: '2024',
      lang: 'fr',
      domain: 'youtube.com',
      file_path: 'Documents/absent.txt',
      ipfs_link: station.driveFile.ipfsLink,
    };
    cases = [];
    for (const op of operationsOf(doc)) {
      const variants = op.secured ? [false, true] : [false];
      for (const { label, draft } of parameterCases(op, values))
        for (const sign of variants) cases.push(render(op, draft, label, sign));
      for (const c of requestCases(op, values))
        for (const sign of variants) cases.push({ ...c, sign, label: `${c.label}${sign ? ' [auth]' : ''}` });
    }
    for (const path of Object.keys(doc.paths)) cases.push(...pathCases(path));
  });
  afterAll(async () => {
    await station?.close();
    await home?.cleanup();
  });

  it('answers at least 700 malformed requests without a 5xx, each 4xx as {detail, code}', async () => {
    await runPool(
      cases.map((c) => () => sendCase(c)),
      CONCURRENCY,
      { every: 100, run: health },
    );
    await health();
    const statuses: Record<string, number> = {};
    for (const { response } of answered)
      statuses[response?.status ?? 'closed'] = (statuses[response?.status ?? 'closed'] ?? 0) + 1;
    console.log(`bad-input corpus: ${answered.length} requests, ${healthChecks} health checks`, statuses);
    expect(answered.length).toBeGreaterThanOrEqual(700);
    expect(failures).toEqual([]);
  }, 180_000);

  it('lets authenticated malformed input reach the validators behind authentication', () => {
    const signed = answered.filter(({ c }) => c.sign && c.method !== 'GET');
    const past = signed.filter(({ response }) => response && ![401, 403].includes(response.status));
    // Most signed write requests get past authentication: their answers come from validation or the routes.
    expect(past.length).toBeGreaterThan(signed.length / 2);
    const codeOf = (body: Buffer) => {
      try {
        return (JSON.parse(body.toString()) as { code?: string }).code;
      } catch {
        return undefined;
      }
    };
    const codes = new Set(past.map(({ response }) => codeOf(response!.body)));
    expect([...codes]).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'INVALID_FILE_PATH']));
  });

  // A route that never reads its body (a GET sent with one) still answers: the payload digest drains it.
  it('answers a NIP-98-signed GET that carries a body', async () => {
    const body = Buffer.from('{"npub":"x"}');
    const response = await station.send({
      label: 'signed GET with a body',
      method: 'GET',
      target: '/api/me',
      headers: [
        ['Content-Type', 'application/json'],
        ['Authorization', station.auth('GET', '/api/me', body)],
      ],
      body,
      timeoutMs: 2_000,
    });
    expect(response?.status).toBe(200);
  });

  it('never echoes the user secret key', () => {
    for (const { response } of answered)
      for (const secret of station.secrets) expect(response?.body.includes(secret)).not.toBe(true);
  });
});
