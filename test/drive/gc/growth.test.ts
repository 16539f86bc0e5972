import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeSize } from '../../../src/drive/gc/store-size.js';
import { MIGRATED_KEY } from '../../../src/drive/migrate/migration.js';
import { driveFixture, type DriveFixture } from '../drive-fixture.js';
import { collect, once_ } from '../helpers.js';
import { diskUsage } from './disk-usage.js';

const KIB = 1024;

describe('the store after a collection', () => {
  let f: DriveFixture | undefined;
  afterEach(async () => f?.close());

  it('holds little more than the live files: 300 uploads of 64 KiB, 200 deleted, then everything', async () => {
    f = await driveFixture({ env: { STORE_KEEP_ROOTS_S: '60' } });
    const { drive, services, clock } = f;
    await services.db.meta.put(MIGRATED_KEY, true);
    const storeDir = join(f.root, 'ipfs-store');
    const held = async () => {
      const size = await storeSize(services.db, storeDir);
      return size.indexBytes + size.heldBytes + size.legacyBytes;
    };
    const user = f.user('grower@example.org');
    const paths: string[] = [];
    for (let i = 0; i < 300; i++) {
      const result = await drive.addStream(user, `photo-${i}.jpg`, once_(randomBytes(64 * KIB)), {
        kind: 'cli',
      });
      paths.push(result.entry.path);
    }
    const peak = await held();
    for (const path of paths.splice(0, 200)) await drive.delete(user, path);
    const live = 100 * 64 * KIB;
    // The retention window passes: superseded roots and deleted files' wrappers may go.
    clock.frozen = Date.now() + 61_000;
    const report = await services.collector.collect();
    expect(report.skipped).toBeNull();
    expect(report.files).toBe(200);
    const dataFolder = await diskUsage(f.root);
    expect(dataFolder, `data folder ${dataFolder} for ${live} live bytes`).toBeLessThanOrEqual(2 * live);
    for (const path of paths) await drive.delete(user, path);
    clock.frozen += 61_000;
    await services.collector.collect();
    const after = await held();
    expect(after, `content store ${after} after everything was deleted, ${peak} at its peak`).toBeLessThan(
      peak / 10,
    );
  });

  it('keeps a handed-out root readable for STORE_KEEP_ROOTS_S, and not after', async () => {
    f = await driveFixture({ env: { STORE_KEEP_ROOTS_S: '600' } });
    const { drive, services, clock, store } = f;
    await services.db.meta.put(MIGRATED_KEY, true);
    clock.frozen = Date.now();
    const user = f.user('keeper@example.org');
    const first = await drive.addStream(user, 'kept.txt', once_(Buffer.from('first version')), {
      kind: 'cli',
    });
    await drive.delete(user, 'Documents/kept.txt');
    const readable = async (cid: string) => store.holds(cid);
    clock.frozen += 599_000;
    await services.collector.collect();
    expect(await readable(first.rootCid)).toBe(true);
    expect(await readable(first.entry.ipfs_link.split('/')[0]!)).toBe(true);
    clock.frozen += 2_000;
    await services.collector.collect();
    expect(await readable(first.rootCid)).toBe(false);
    expect(await readable(first.entry.cid)).toBe(false);
    // The drive's current root stays whatever its age.
    const current = (await drive.list(user)).root_cid!;
    clock.frozen += 10 * 600_000;
    await services.collector.collect();
    expect(await readable(current)).toBe(true);
  });
});

describe('what two users hold alike', () => {
  let f: DriveFixture | undefined;
  afterEach(async () => f?.close());

  it('stays while one of them keeps it: the same file and name deleted by one user, collected, read by the other', async () => {
    f = await driveFixture({ env: { STORE_KEEP_ROOTS_S: '0' } });
    const { drive, services, store } = f;
    await services.db.meta.put(MIGRATED_KEY, true);
    const [ann, ben] = [f.user('ann@example.org'), f.user('ben@example.org')];
    const bytes = Buffer.from('the same song, twice');
    const a = await drive.addStream(ann, 'song.mp3', once_(bytes), { kind: 'cli' });
    const b = await drive.addStream(ben, 'song.mp3', once_(bytes), { kind: 'cli' });
    // One wrapper for both: kept by two references.
    expect(a.entry.ipfs_link).toBe(b.entry.ipfs_link);
    const wrapper = a.entry.ipfs_link.split('/')[0]!;
    expect(services.db.pinRefs.get(wrapper)).toBe(2);
    await drive.delete(ann, 'Music/song.mp3');
    expect(services.db.pinRefs.get(wrapper)).toBe(1);
    await services.collector.collect();
    expect(await store.holds(wrapper)).toBe(true);
    expect(await collect(store.cat(b.entry.ipfs_link))).toEqual(bytes);
    await drive.delete(ben, 'Music/song.mp3');
    expect(services.db.pinRefs.get(wrapper)).toBeUndefined();
    f.clock.frozen = Date.now() + 2_000; // past the second it was let go in (STORE_KEEP_ROOTS_S is 0)
    await services.collector.collect();
    expect(await store.holds(wrapper)).toBe(false);
  });
});
