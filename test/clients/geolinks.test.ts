import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CellKeys } from '../../src/geo/cell-keys.js';
import { deriveNostrKey } from '../../src/identity/keys.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const NETWORK = 'TestNet';
const HEX = /^[0-9a-f]{64}$/;

/** The key the station's `keygen -t nostr <salt> <pepper>` gives, through the identity code's own derivation. */
const keygen = async (salt: string, pepper = salt) => (await deriveNostrKey(salt, pepper)).hex;

/**
 * UPassport's chat page (templates/chat.html) asks `/api/umap/geolinks?lat=${coords.lat}&lon=${coords.lon}` with
 * the cell floored to its level, and reads `umaps.here` / `sectors.here` / `regions.here` as the room's NOSTR
 * key; nostr_uplanet.html reads `success`, `total_adjacent` and the 64-hex values of `geolinks`.
 */
describe('UMAP geolinks clients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { UPLANETNAME: NETWORK } });
  });
  afterAll(() => t?.close());

  const get = (query: string) => t.app.inject({ url: `/api/umap/geolinks?${query}` });

  it('chat: the room keys are the ones Umap_geonostr.sh derives for the cell and its neighbours', async () => {
    // chat.html floors with floating point: 48.85 may arrive as 48.849999999999994.
    const res = await get('lat=48.849999999999994&lon=2.35');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.umap_coordinates).toEqual({ lat: 48.85, lon: 2.35 });
    expect(body.umaps.here).toBe(await keygen(`${NETWORK}48.85`, `${NETWORK}2.35`));
    expect(body.umaps.north).toBe(await keygen(`${NETWORK}48.86`, `${NETWORK}2.35`));
    expect(body.umaps.southwest).toBe(await keygen(`${NETWORK}48.84`, `${NETWORK}2.34`));
    expect(body.sectors.here).toBe(await keygen(`${NETWORK}_48.8_2.3`));
    expect(body.sectors.east).toBe(await keygen(`${NETWORK}_48.8_2.4`));
    expect(body.regions.here).toBe(await keygen(`${NETWORK}_48_2`));
    expect(body.regions.northwest).toBe(await keygen(`${NETWORK}_49_1`));
    expect(body.cells.sectors.here).toBe('48.8_2.3');
    expect(body.cells.regions.south).toBe('47_2');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('nostr_uplanet: success, total_adjacent and nine 64-hex UMAP keys under geolinks', async () => {
    const body = (await get('lat=43.6047&lon=1.4442')).json();
    expect(body.total_adjacent).toBe(8);
    const keys = Object.values(body.geolinks as Record<string, string>).filter((key) => key.length === 64);
    expect(keys).toHaveLength(9);
    expect(new Set(keys).size).toBe(9);
    for (const level of ['umaps', 'sectors', 'regions'])
      for (const key of Object.values(body[level] as Record<string, string>)) expect(key).toMatch(HEX);
    expect(body.geolinks).toEqual(body.umaps);
    expect(body.cells.umaps.here).toBe('43.60_1.44');
  });

  it('keeps the station tool\'s text forms around zero ("-0.50" is REGION "-0")', async () => {
    const body = (await get('lat=-0.5&lon=-0.05')).json();
    expect(body.cells.umaps.here).toBe('-0.50_-0.05');
    expect(body.cells.sectors.here).toBe('-0.5_-0.0');
    expect(body.cells.regions.here).toBe('-0_-0');
    expect(body.cells.regions.north).toBe('1_-0');
    expect(body.regions.here).toBe(await keygen(`${NETWORK}_-0_-0`));
  });

  it.each(['lat=abc&lon=2', 'lat=91&lon=2', 'lat=48&lon=181', 'lat=&lon=2', 'lat=1e3&lon=2', 'lon=2'])(
    'refuses %s with 400 {detail, code}',
    async (query) => {
      const res = await get(query);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) });
    },
  );
});

describe('CellKeys', () => {
  it('derives what identity/keys.ts derives (the contract vector), once per (salt, pepper)', async () => {
    const keys = new CellKeys();
    const [a, b] = await Promise.all([keys.hexFor('coucou', 'coucou'), keys.hexFor('coucou', 'coucou')]);
    expect(a).toBe('9da638f3ff87f550efb32ca0d363f53047ead410e6748c19eb8ccb81ba3aff27');
    expect(b).toBe(a);
  });
});
