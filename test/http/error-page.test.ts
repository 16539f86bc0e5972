import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedLedger } from '../../src/economy/cached-ledger.js';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { deadUrl, FakeSquid } from '../economy/squid-server.js';

/** The app with its ledger on the given indexers (the economy tests' fake squid, or dead addresses). */
async function appOn(urls: string[]): Promise<TestApp> {
  const clock = new ManualClock(Date.parse('2025-11-22T09:00:00Z'));
  const ledger = new CachedLedger(new SquidLedger(new GraphqlPool({ urls, clock })), { clock });
  return buildTestApp({ clock, overrides: { ledger } });
}

const BAD_KEY = '/check_balance?g1pub=not-a-key';
const GOOD_KEY = '/check_balance?g1pub=g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9';

interface Answer {
  status: number;
  type: string;
  reason: string;
  body: string;
}

/** A GET over a real socket, the path sent as given (characters a browser would encode included). */
function get(base: URL, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: base.hostname, port: base.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          reason: String(res.headers['x-reason']),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function listen(t: TestApp): Promise<URL> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return new URL(`http://127.0.0.1:${port}`);
}

describe('read-outs asked for as pages fail as pages', () => {
  let squid: FakeSquid;
  let t: TestApp;
  let base: URL;
  beforeAll(async () => {
    squid = await FakeSquid.start();
    t = await appOn([squid.url]);
    base = await listen(t);
  });
  afterAll(async () => {
    await t.close();
    await squid.close();
  });

  it('answers a bad key with a French page and a French detail under lang=fr, same status and X-Reason', async () => {
    const res = await get(base, `${BAD_KEY}&html=1&lang=fr`);
    expect(res.status).toBe(400);
    expect(res.type).toBe('text/html; charset=utf-8');
    expect(res.reason).toContain('g1pub must be');
    expect(res.body).toContain('<html lang="fr">');
    expect(res.body).toContain('Demande impossible');
    expect(res.body).toContain('<dd id="error-code" class="mono">INVALID_G1PUB</dd>');
    expect(res.body).toContain('g1pub doit être une clé publique Ğ1');
    expect(res.body).not.toContain('g1pub must be');
    expect(res.body).toContain('<a id="error-back" href="/check_balance?html=1&amp;lang=fr">');
  });

  it('speaks English under lang=en and under Accept-Language: en', async () => {
    for (const [path, headers] of [
      [`${BAD_KEY}&html=1&lang=en`, {}],
      [`${BAD_KEY}&html=1`, { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' }],
    ] as const) {
      const res = await get(base, path, headers);
      expect(res.status).toBe(400);
      expect(res.body).toContain('<html lang="en">');
      expect(res.body).toContain('Request not possible');
      expect(res.body).toContain('Back to the page');
      expect(res.body).toContain('g1pub must be a Ğ1 public key');
    }
    expect((await get(base, `${BAD_KEY}&html=1`)).body).toContain('<html lang="fr">');
  });

  it('answers an unknown local user and a failed validation as pages too', async () => {
    const unknown = await get(base, '/check_balance?g1pub=nobody%40example.org&html=1');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('UNKNOWN_USER');
    const invalid = await get(base, `/check_balance?g1pub=${'x'.repeat(300)}&html=1&lang=en`);
    expect(invalid.status).toBe(400);
    expect(invalid.type).toBe('text/html; charset=utf-8');
    expect(invalid.body).toContain('VALIDATION_FAILED');
  });

  it('escapes what it shows', async () => {
    const res = await get(base, '/no/<script>alert(1)</script>?html=1&lang=en');
    expect(res.status).toBe(404);
    expect(res.type).toBe('text/html; charset=utf-8');
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).toContain('No route for GET /no/&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('id="error-back"');
  });

  it('shows a browser that navigates to an unknown address a page, and others JSON', async () => {
    const page = await get(base, '/nowhere', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(page.status).toBe(404);
    expect(page.body).toContain('Page introuvable');
    const json = await get(base, '/nowhere');
    expect(JSON.parse(json.body)).toEqual({ detail: 'No route for GET /nowhere', code: 'NOT_FOUND' });
  });

  it('still answers JSON {detail, code} without html', async () => {
    const res = await get(base, BAD_KEY, { 'accept-language': 'en' });
    expect(res.status).toBe(400);
    expect(res.type).toBe('application/json; charset=utf-8');
    expect(Object.keys(JSON.parse(res.body)).sort()).toEqual(['code', 'detail']);
  });

  it('answers a failing indexer (502) with a page saying the service is unavailable', async () => {
    squid.mode = 'graphql-error';
    try {
      const res = await get(base, `${GOOD_KEY}&html=1&lang=en`);
      expect(res.status).toBe(502);
      expect(res.type).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('Service unavailable');
      expect(res.body).toContain('INDEXER_FAILED');
    } finally {
      squid.mode = 'ok';
    }
  });
});

describe('an indexer outage asked for as a page', () => {
  let t: TestApp;
  let base: URL;
  beforeAll(async () => {
    t = await appOn([await deadUrl()]);
    base = await listen(t);
  });
  afterAll(() => t.close());

  it('is a 503 page with html, and 503 JSON without', async () => {
    for (const path of ['/check_society?html=1', `${GOOD_KEY}&html=1`]) {
      const page = await get(base, path);
      expect(page.status).toBe(503);
      expect(page.type).toBe('text/html; charset=utf-8');
      expect(page.reason).toContain('unreachable');
      expect(page.body).toContain('Service indisponible');
      expect(page.body).toContain('L’indexeur Ğ1 est injoignable');
      expect(page.body).toContain('INDEXER_DOWN');
    }
    const json = await get(base, '/check_society');
    expect(json.status).toBe(503);
    expect(JSON.parse(json.body)).toEqual({
      detail: expect.stringContaining('unreachable'),
      code: 'INDEXER_DOWN',
    });
  });
});
