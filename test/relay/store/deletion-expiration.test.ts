import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newKey, signEvent, type TestKey } from '../../helpers/nostr.js';
import { ids, storeFixture, type StoreFixture } from './fixtures.js';

const T = 1_700_000_000;

describe('LMDB event store: NIP-09 deletions', () => {
  let f: StoreFixture;
  let alice: TestKey;
  let mallory: TestKey;
  beforeEach(async () => {
    f = await storeFixture();
    alice = newKey();
    mallory = newKey();
  });
  afterEach(() => f.cleanup());

  const all = () => ids(f.store.query([{}], 100));

  it('deletes the author’s events named by e tags and refuses them afterwards', async () => {
    const note = signEvent(alice, { kind: 1, created_at: T });
    const kept = signEvent(alice, { kind: 1, created_at: T + 1 });
    await f.store.put(note);
    await f.store.put(kept);
    const deletion = signEvent(alice, { kind: 5, created_at: T + 2, tags: [['e', note.id]] });
    expect(await f.store.put(deletion)).toEqual({ stored: true });
    expect(all()).toEqual([deletion.id, kept.id]);
    expect(f.store.health().events).toBe(2);
    expect(await f.store.put(note)).toMatchObject({ stored: false, reason: 'deleted' });
    await f.reopen();
    expect(await f.store.put(note)).toMatchObject({ stored: false, reason: 'deleted' });
  });

  it('refuses an event whose deletion arrived first', async () => {
    const note = signEvent(alice, { kind: 1, created_at: T });
    await f.store.put(signEvent(alice, { kind: 5, created_at: T + 2, tags: [['e', note.id]] }));
    expect(await f.store.put(note)).toMatchObject({ stored: false, reason: 'deleted' });
  });

  it('does nothing to another author’s events', async () => {
    const note = signEvent(alice, { kind: 1, created_at: T });
    const article = signEvent(alice, { kind: 30023, created_at: T, tags: [['d', 'x']] });
    await f.store.put(note);
    await f.store.put(article);
    const forged = signEvent(mallory, {
      kind: 5,
      created_at: T + 5,
      tags: [
        ['e', note.id],
        ['a', `30023:${alice.hex}:x`],
      ],
    });
    expect(await f.store.put(forged)).toEqual({ stored: true });
    expect(all()).toEqual([forged.id, ...[article.id, note.id].sort()]);
    // Mallory's claim on the id does not shadow Alice's own deletion either.
    await f.store.put(signEvent(alice, { kind: 5, created_at: T + 6, tags: [['e', note.id]] }));
    expect(await f.store.put(note)).toMatchObject({ stored: false, reason: 'deleted' });
  });

  it('deletes every version of an a coordinate up to the deletion, and accepts newer versions', async () => {
    const v1 = signEvent(alice, { kind: 30023, created_at: T, tags: [['d', 'post']] });
    const other = signEvent(alice, { kind: 30023, created_at: T, tags: [['d', 'other']] });
    await f.store.put(v1);
    await f.store.put(other);
    const deletion = signEvent(alice, {
      kind: 5,
      created_at: T + 10,
      tags: [['a', `30023:${alice.hex}:post`]],
    });
    await f.store.put(deletion);
    expect(all()).toEqual([deletion.id, other.id]);
    const older = signEvent(alice, { kind: 30023, created_at: T + 5, tags: [['d', 'post']] });
    const same = signEvent(alice, { kind: 30023, created_at: T + 10, tags: [['d', 'post']] });
    expect(await f.store.put(older)).toMatchObject({ stored: false, reason: 'deleted' });
    expect(await f.store.put(same)).toMatchObject({ stored: false, reason: 'deleted' });
    const newer = signEvent(alice, { kind: 30023, created_at: T + 11, tags: [['d', 'post']] });
    expect(await f.store.put(newer)).toEqual({ stored: true });
    expect(ids(f.store.query([{ '#d': ['post'] }], 10))).toEqual([newer.id]);
  });

  it('keeps a version newer than the deletion of its coordinate', async () => {
    const newer = signEvent(alice, { kind: 10002, created_at: T + 20 });
    await f.store.put(newer);
    await f.store.put(
      signEvent(alice, { kind: 5, created_at: T + 10, tags: [['a', `10002:${alice.hex}:`]] }),
    );
    expect(ids(f.store.query([{ kinds: [10002] }], 10))).toEqual([newer.id]);
    const between = signEvent(alice, { kind: 10002, created_at: T + 5 });
    expect(await f.store.put(between)).toMatchObject({ stored: false, reason: 'deleted' });
  });

  it('ignores a deletion of a deletion', async () => {
    const first = signEvent(alice, { kind: 5, created_at: T, tags: [['e', 'a'.repeat(64)]] });
    await f.store.put(first);
    await f.store.put(signEvent(alice, { kind: 5, created_at: T + 1, tags: [['e', first.id]] }));
    expect(ids(f.store.query([{ ids: [first.id] }], 10))).toEqual([first.id]);
  });
});

describe('LMDB event store: NIP-40 expiration', () => {
  let f: StoreFixture;
  let alice: TestKey;
  beforeEach(async () => {
    f = await storeFixture();
    alice = newKey();
  });
  afterEach(() => f.cleanup());

  it('refuses an expired event, hides one once it expires, and sweeps it', async () => {
    const now = f.clock.seconds();
    const stale = signEvent(alice, { kind: 1, created_at: now - 100, tags: [['expiration', `${now - 1}`]] });
    expect(await f.store.put(stale)).toMatchObject({ stored: false, reason: 'expired' });
    const soon = signEvent(alice, { kind: 1, created_at: now - 50, tags: [['expiration', `${now + 60}`]] });
    const later = signEvent(alice, { kind: 1, created_at: now - 40, tags: [['expiration', `${now + 600}`]] });
    const forever = signEvent(alice, { kind: 1, created_at: now - 30 });
    for (const event of [soon, later, forever]) expect(await f.store.put(event)).toEqual({ stored: true });
    expect(f.store.query([{}], 10)).toHaveLength(3);

    f.clock.advance(60_000);
    expect(ids(f.store.query([{}], 10))).toEqual([forever.id, later.id]);
    expect(f.store.query([{ ids: [soon.id] }], 10)).toEqual([]);
    expect(f.store.health().events).toBe(3);

    expect(await f.store.sweep(f.clock.seconds())).toBe(1);
    expect(f.store.health().events).toBe(2);
    expect(await f.store.sweep(f.clock.seconds())).toBe(0);
    expect(await f.store.sweep(f.clock.seconds() + 600)).toBe(1);
    expect(ids(f.store.query([{}], 10))).toEqual([forever.id]);
  });
});
