import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADS, startFakeLeboncoin } from './fake-leboncoin.js';
import { cookieLine, createStation, runScript, type TestStation } from './station.js';

const ALICE = 'alice@example.org';
const BOB = 'bob@example.org';

// Exported by a browser on Windows: BOM, CRLF, no header, an HttpOnly line, an expired cookie, a
// host-only cookie of another host of the same site.
const COOKIE_FILE = `\uFEFF${[
  cookieLine('.leboncoin.fr', 'datadome', 'dd-secret-value'),
  `#HttpOnly_${cookieLine('.leboncoin.fr', 'luat', 'lu-secret-value')}`,
  cookieLine('.leboncoin.fr', 'stale', 'expired-value', 1_000_000_000),
  cookieLine('www.leboncoin.fr', 'www_only', 'www-value'),
].join('\r\n')}\r\n`;

// Results go into the drive through the real `station drive add` (src/cli/drive.ts, from the sources).
// Each `station drive add` the scripts run starts the CLI through tsx (2–3 s on a loaded machine).
describe('scripts/leboncoin.fr.sh + scraper_leboncoin.py', { timeout: 120_000 }, () => {
  let station: TestStation;
  let api: Awaited<ReturnType<typeof startFakeLeboncoin>>;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    api = await startFakeLeboncoin();
  });
  afterAll(async () => api.close());
  beforeEach(async () => {
    api.requests.length = 0;
    api.respondWith(200);
    station = await createStation();
    await station.addUser(ALICE, { lat: 43.6, lon: 1.44 });
    await station.addUser(BOB);
    cookies[ALICE] = await station.writeCookie(ALICE, 'leboncoin.fr', COOKIE_FILE);
    cookies[BOB] = await station.writeCookie(BOB, 'leboncoin.fr', COOKIE_FILE);
  });
  afterEach(async () => station.close());

  const scrape = (email: string, env: NodeJS.ProcessEnv = {}) =>
    runScript('leboncoin.fr.sh', [email, cookies[email]!], {
      ...station.env,
      LEBONCOIN_API: api.url,
      ...env,
    });

  it('searches free items around the user and adds the results JSON to the drive Documents', async () => {
    const result = await scrape(ALICE);
    expect(result.code, result.stderr).toBe(0);

    expect(api.requests).toHaveLength(1);
    const [request] = api.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/finder/search');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.api_key).toMatch(/^\w+$/);
    expect(request!.body).toMatchObject({
      filters: {
        enums: { ad_type: ['offer'], donation: ['1'] },
        location: { area: { lat: 43.6, lng: 1.44, radius: 10_000 } },
      },
      limit: 35,
      sort_by: 'time',
    });
    // Only the cookies a browser would send to api.leboncoin.fr: not the expired one, not another host's.
    const sent = (request!.headers.cookie ?? '').split('; ').sort();
    expect(sent).toEqual(['datadome=dd-secret-value', 'luat=lu-secret-value']);

    const documents = await station.driveFiles(ALICE, 'Documents');
    expect(documents).toEqual([expect.stringMatching(/^leboncoin_dons_\d{4}-\d\d-\d\d\.json$/)]);
    const saved = JSON.parse(
      await readFile(
        join(station.dataRoot, 'nostr', ALICE, 'APP', 'uDRIVE', 'Documents', documents[0]!),
        'utf8',
      ),
    );
    expect(saved).toMatchObject({
      source: 'leboncoin.fr',
      search: { filter: 'donation', lat: 43.6, lon: 1.44, radius_km: 10 },
      total: 2,
      count: 2,
    });
    expect(saved.fetched_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(saved.ads[0]).toEqual({
      id: ADS[0]!.list_id,
      title: 'Donne armoire en chêne',
      url: ADS[0]!.url,
      category: 'Ameublement',
      published: '2026-11-21 18:02:11',
      city: 'Toulouse',
      zipcode: '31000',
      lat: 43.6,
      lng: 1.44,
      image: 'https://img.leboncoin.fr/a.jpg',
      description: 'À venir chercher sur place.',
    });
    expect(saved.ads[1]).toMatchObject({ image: null, city: 'Blagnac' });
    expect(saved.ads[1].description).toHaveLength(500);

    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(/secret-value|www-value|expired-value/);
    expect((await readdir(station.tmpDir)).filter((name) => name.startsWith('leboncoin.fr.'))).toEqual([]);
  });

  it('takes the radius and result count from the environment', async () => {
    const result = await scrape(ALICE, { LEBONCOIN_RADIUS_KM: '25', LEBONCOIN_LIMIT: '10' });
    expect(result.code, result.stderr).toBe(0);
    expect(api.requests[0]!.body).toMatchObject({
      filters: { location: { area: { radius: 25_000 } } },
      limit: 10,
    });
  });

  it.each([403, 401])(
    'exits 2 when the site rejects the cookie (HTTP %i) and adds nothing',
    async (status) => {
      api.respondWith(status);
      const result = await scrape(ALICE);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`rejected the cookie \\(HTTP ${status}\\)`));
      expect(result.stderr).toMatch(/fresh leboncoin\.fr cookie export/);
      expect(result.stderr).not.toMatch(/enable JS/);
      expect(await station.driveFiles(ALICE, 'Documents')).toEqual([]);
    },
  );

  it('fails clearly when the user has no GPS position, without querying the site', async () => {
    const result = await scrape(BOB);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no GPS position for bob@example\.org/);
    expect(api.requests).toEqual([]);
    expect(await station.driveFiles(BOB, 'Documents')).toEqual([]);
  });

  it('exits 1 on a server error or an unreachable API', async () => {
    api.respondWith(500);
    const broken = await scrape(ALICE);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/HTTP 500/);
    const unreachable = await scrape(ALICE, { LEBONCOIN_API: 'http://127.0.0.1:1/finder/search' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/unreachable/);
    expect(await station.driveFiles(ALICE, 'Documents')).toEqual([]);
  });

  it('refuses bad arguments and settings with exit 64', async () => {
    expect((await runScript('leboncoin.fr.sh', [ALICE], station.env)).code).toBe(64);
    const traversal = await runScript('leboncoin.fr.sh', ['../../x@example.org', cookies[ALICE]!], {
      ...station.env,
      LEBONCOIN_API: api.url,
    });
    expect(traversal.code).toBe(64);
    expect((await scrape(ALICE, { LEBONCOIN_RADIUS_KM: '-5' })).code).toBe(64);
    expect((await scrape(ALICE, { LEBONCOIN_API: 'file:///etc/passwd' })).code).toBe(64);
    expect(api.requests).toEqual([]);
  });
});
