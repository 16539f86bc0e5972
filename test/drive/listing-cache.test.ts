import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DriveListings } from '../../src/drive/listing-cache.js';
import type { DriveListing } from '../../src/drive/listing-schema.js';
import { DEFAULT_LINKS, driveFixture, type DriveFixture } from './drive-fixture.js';

/**
 * A drive's listing is built from the last one (src/drive/listing-cache.ts): whatever happened in between
 * (files added, removed, both, a name uploaded again), it is the listing a fresh build gives, and a
 * build after uploads only reads the files added.
 */
describe('drive listings built from the last one', () => {
  let f: DriveFixture;
  beforeEach(async () => (f = await driveFixture()));
  afterEach(() => f.close());

  /** The listing a cache that never saw the drive builds, from every record. */
  const fresh = (hex: string, links = DEFAULT_LINKS): DriveListing => {
    const { reads } = f.services;
    return reads.snapshot((at) => new DriveListings(reads).of(reads.head(hex, at)!, links, at));
  };

  it('equals a fresh build after every kind of change, and reads only the files added after uploads', async () => {
    const alice = f.user('alice@example.org');
    const bob = f.user('bob@example.org');
    for (let i = 0; i < 12; i++) await f.addText(alice, `a-${i}.txt`, `alpha ${i}`);
    await f.addText(bob, 'b.txt', 'bravo');
    const first = await f.drive.listing(alice);
    expect(first.files).toHaveLength(12);
    expect(first).toEqual(fresh(alice.hex));

    // Uploads only: the earlier files' objects are reused, and only the new records are decoded.
    const reads = f.services.reads;
    const decoded: number[] = [];
    const entryBySeq = reads.entryBySeq.bind(reads);
    reads.entryBySeq = (hex, seq, at) => (decoded.push(seq), entryBySeq(hex, seq, at));
    await f.addText(alice, 'c.txt', 'charlie');
    await f.addText(alice, 'd.txt', 'delta');
    const appended = await f.drive.listing(alice);
    expect(decoded).toHaveLength(2);
    expect(appended.files.slice(0, 12)).toEqual(first.files);
    expect(appended.files[0]).toBe(first.files[0]);
    expect(appended.files.map((file) => file.name).slice(-2)).toEqual(['c.txt', 'd.txt']);
    expect(appended).toEqual(fresh(alice.hex));

    // Removals, and a removal with an upload in one change's worth of time.
    decoded.length = 0;
    await f.drive.delete(alice, 'Documents/a-3.txt');
    await f.drive.delete(alice, 'Documents/d.txt');
    await f.addText(alice, 'e.txt', 'echo');
    const mixed = await f.drive.listing(alice);
    expect(decoded).toHaveLength(1);
    expect(mixed.files.map((file) => file.name)).not.toContain('a-3.txt');
    expect(mixed.total_files).toBe(13);
    expect(mixed).toEqual(fresh(alice.hex));

    // The same name uploaded again, then the same version listed again: the same answer.
    await f.addText(alice, 'a-0.txt', 'alpha again');
    const again = await f.drive.listing(alice);
    expect(again).toEqual(fresh(alice.hex));
    expect(await f.drive.listing(alice)).toBe(again);
    expect((await f.drive.listing(bob)).files.map((file) => file.name)).toEqual(['b.txt']);
  });

  it('answers the links asked for: other links give the same files under another header', async () => {
    const dave = f.user('dave@example.org');
    await f.addText(dave, 'd.txt', 'delta');
    const { reads } = f.services;
    const listings = new DriveListings(reads);
    const other = { api: 'https://station.example', gateway: 'https://ipfs.station.example' };
    const at = (links: typeof other) =>
      reads.snapshot((snap) => listings.of(reads.head(dave.hex, snap)!, links, snap));
    const before = at(DEFAULT_LINKS);
    const after = at(other);
    expect(after).toMatchObject({ api_url: other.api, my_ipfs_gateway: other.gateway });
    expect(after.explorer_url).toBe(`${other.gateway}/ipfs/${before.root_cid}/_index.html`);
    expect(after.files).toEqual(before.files);
    expect(after).toEqual(fresh(dave.hex, other));
  });

  it('lists a drive emptied of every file, and its files again once some come back', async () => {
    const carol = f.user('carol@example.org');
    for (let i = 0; i < 3; i++) await f.addText(carol, `c-${i}.txt`, `c ${i}`);
    expect((await f.drive.listing(carol)).files).toHaveLength(3);
    for (let i = 0; i < 3; i++) await f.drive.delete(carol, `Documents/c-${i}.txt`);
    const empty = await f.drive.listing(carol);
    expect(empty).toMatchObject({ files: [], total_files: 0, total_size: 0 });
    expect(empty).toEqual(fresh(carol.hex));
    await f.addText(carol, 'again.txt', 'again');
    const again = await f.drive.listing(carol);
    expect(again.files.map((file) => file.name)).toEqual(['again.txt']);
    expect(again).toEqual(fresh(carol.hex));
  });
});
