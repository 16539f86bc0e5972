import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserStore } from '../../src/identity/user-store.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';

describe('UserStore index', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const stores: UserStore[] = [];
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) store.close();
    await dir.cleanup();
  });

  const open = async () => {
    const store = await UserStore.open(join(dir.path, 'game'), { uplanetName: 'test' });
    stores.push(store);
    return store;
  };

  it('finds users by e-mail, hex and npub-derived hex right after creation', async () => {
    const store = await open();
    const created = await store.create({ email: 'Ann@Example.org' });
    expect((await store.findByEmail('ANN@example.org'))?.hex).toBe(created.record.hex);
    expect((await store.findByHex(created.record.hex))?.email).toBe('ann@example.org');
    expect(store.size).toBe(1);
  });

  it('stays current when another process adds a user', async () => {
    const a = await open();
    const b = await open();
    const created = await a.create({ email: 'other@example.org' });
    await waitFor(async () => (await b.findByHex(created.record.hex)) !== null);
    expect(b.list().map((u) => u.email)).toEqual(['other@example.org']);
  });

  it('answers unknown keys from the watched index, without re-reading the user directories', async () => {
    const store = await open();
    await store.create({ email: 'known@example.org' });
    const internals = store as unknown as { rescan: () => Promise<void>; lastRescan: number };
    internals.lastRescan = 0; // as if the last full scan were long ago
    const rescan = vi.spyOn(internals, 'rescan');
    for (let i = 0; i < 5; i++) expect(await store.findByHex(`${i}`.repeat(64))).toBeNull();
    expect(rescan).not.toHaveBeenCalled();
  });

  it('reads directories made by the station shell tools, and ignores what is not a user', async () => {
    const root = join(dir.path, 'game', 'nostr');
    const hex = 'ab'.repeat(32);
    await mkdir(join(root, 'legacy@example.org'), { recursive: true });
    await writeFile(join(root, 'legacy@example.org', 'HEX'), `${hex}\n`);
    await writeFile(join(root, 'legacy@example.org', 'GPS'), 'LAT=43.60; LON=1.44;\n');
    await mkdir(join(root, 'not-an-email'));
    await mkdir(join(root, 'nohex@example.org'));
    const store = await open();
    expect(store.list()).toEqual([
      { email: 'legacy@example.org', hex, npub: '', g1pub: null, gps: { lat: 43.6, lon: 1.44 } },
    ]);
  });

  it('answers null for unsafe e-mails instead of touching the disk outside its root', async () => {
    const store = await open();
    expect(await store.findByEmail('../../etc@passwd.org')).toBeNull();
    expect(() => store.dirFor('../x@y.z')).toThrow(/e-mail/);
  });
});
