import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BlobIndex } from '../../../src/drive/blobs/blob-index.js';
import { CommitPacing } from '../../../src/state/commit-pacing.js';
import { openStationDb, type StationDb } from '../../../src/state/station-db.js';
import { tempDir } from '../../helpers/temp.js';

const sha = (n: number) => n.toString(16).padStart(64, '0');
const facts = { cid: 'QmFacts', size: 3, type: 'text/plain' };
const held = (path: string) => ({ path, link: `QmWrapper/${path}`, uploaded: 1_800_000_000 });

describe('blob index', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let db: StationDb;

  beforeEach(async () => {
    dir = await tempDir();
    db = await openStationDb(dir.path);
  });
  afterEach(async () => {
    await db.close();
    await dir.cleanup();
  });

  it('records the uploads that come together in shared transactions, every one of them', async () => {
    const transactions = vi.spyOn(db.blobs, 'transaction');
    const index = new BlobIndex(db, new CommitPacing(50));
    await Promise.all(
      Array.from({ length: 40 }, (_, n) => index.record(`key${n % 4}`, sha(n), facts, held(`f${n}`))),
    );
    // One transaction for the first, one for all that came while it ran: not one each.
    expect(transactions.mock.calls.length).toBeLessThanOrEqual(2);
    for (let n = 0; n < 40; n++) expect(index.heldBy(`key${n % 4}`, sha(n))?.path).toBe(`f${n}`);
    expect(index.owned('key1')).toHaveLength(10);
  });

  it('sees, in a shared transaction, what the earlier changes of it wrote', async () => {
    const index = new BlobIndex(db, new CommitPacing(50));
    await index.record('alice', sha(1), facts, held('a'));
    // Bob's copy arrives and Alice's goes in the same transaction: the blob stays, Bob still holds it.
    await Promise.all([index.record('bob', sha(1), facts, held('b')), index.forget('alice', sha(1))]);
    expect(index.find(sha(1))).toEqual(facts);
    expect(index.heldBy('bob', sha(1))?.path).toBe('b');
    expect(index.heldBy('alice', sha(1))).toBeUndefined();
    await index.forget('bob', sha(1));
    expect(index.find(sha(1))).toBeUndefined();
  });
});
