import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../src/nostr/verify.js';
import { StoreWriteError } from '../../../src/relay/store/event-store.js';
import { importJournal } from '../../../src/relay/store/import-journal.js';
import { newKey, signEvent } from '../../helpers/nostr.js';
import { ids, storeFixture, type StoreFixture } from './fixtures.js';

const T = 1_700_000_000;

describe('importJournal', () => {
  let f: StoreFixture;
  afterEach(() => f.cleanup());

  it('stores the verified events of the old journal, skips bad lines, and renames the file', async () => {
    f = await storeFixture();
    const key = newKey();
    const good = Array.from({ length: 300 }, (_, i) => signEvent(key, { kind: 1, created_at: T + i }));
    const profile = signEvent(key, { kind: 0, created_at: T, content: '{}' });
    const newerProfile = signEvent(key, { kind: 0, created_at: T + 1, content: '{"name":"n"}' });
    const forged = { ...signEvent(key, { kind: 1, created_at: T + 999 }), content: 'altered' };
    const ephemeral = signEvent(key, { kind: 20001, created_at: T });
    const lines = [
      ...good.map((e) => JSON.stringify(e)),
      JSON.stringify(newerProfile),
      JSON.stringify(profile), // older, arrives later: refused as replaced
      JSON.stringify(forged),
      JSON.stringify(ephemeral),
      JSON.stringify(good[0]), // duplicate
      '{"not":"an event"}',
      '',
    ];
    const journal = join(f.path, '..', 'events.jsonl');
    const torn = JSON.stringify(signEvent(key, { kind: 1, created_at: T + 5_000 })).slice(0, 80);
    await writeFile(journal, `${lines.join('\n')}\n${torn}`);

    const stats = await importJournal(journal, f.store, verifySignature);
    expect(stats).toEqual({ imported: 301, refused: 2, invalid: 5 });
    expect(existsSync(journal)).toBe(false);
    expect(existsSync(`${journal}.imported`)).toBe(true);
    expect(f.store.health().events).toBe(301);
    expect(ids(f.store.query([{ kinds: [0] }], 10))).toEqual([newerProfile.id]);
    expect(f.store.query([{ ids: [forged.id] }], 10)).toEqual([]);
    expect(f.store.query([{ kinds: [1] }], 1_000)).toHaveLength(300);
  });

  it('imports nothing when there is no journal', async () => {
    f = await storeFixture();
    const journal = join(f.path, '..', 'missing.jsonl');
    expect(await importJournal(journal, f.store, verifySignature)).toEqual({
      imported: 0,
      refused: 0,
      invalid: 0,
    });
    expect(existsSync(`${journal}.imported`)).toBe(false);
  });

  it('stops on a store write error and leaves the journal for the next attempt', async () => {
    let fail = true;
    f = await storeFixture({
      beforeWrite: () => {
        if (fail) throw Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC' });
      },
    });
    const key = newKey();
    const journal = join(f.path, '..', 'events.jsonl');
    const events = Array.from({ length: 3 }, (_, i) => signEvent(key, { kind: 1, created_at: T + i }));
    await writeFile(journal, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    await expect(importJournal(journal, f.store, verifySignature)).rejects.toBeInstanceOf(StoreWriteError);
    expect(existsSync(journal)).toBe(true);
    fail = false;
    expect(await importJournal(journal, f.store, verifySignature)).toMatchObject({ imported: 3 });
    expect(existsSync(journal)).toBe(false);
  });
});
