import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedRelay, type EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { openLmdbEventStore } from '../../src/relay/store/lmdb-event-store.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { tempDir } from '../helpers/temp.js';
import { RawClient } from './raw-client.js';

const noSpace = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });

describe('embedded relay on a full disk', () => {
  let relay: EmbeddedRelay;
  let app: TestApp;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  afterEach(async () => {
    await app?.close();
    await relay?.close();
    await dir?.cleanup();
  });

  it('answers OK false, reports the store in /health, stays up and recovers when space returns', async () => {
    dir = await tempDir();
    let diskFull = false;
    const store = await openLmdbEventStore({
      path: join(dir.path, 'store'),
      beforeWrite: () => {
        if (diskFull) throw noSpace();
      },
    });
    relay = await startEmbeddedRelay({ host: '127.0.0.1', port: 0, store });
    app = await buildTestApp({ overrides: { relayStore: () => relay.health().store } });
    const health = async () =>
      (await app.app.inject({ url: '/health' })).json() as {
        relay_store: { ok: boolean; error: string | null };
      };
    const client = await RawClient.connect(relay.url);
    const key = newKey();

    const before = signEvent(key, { kind: 1, content: 'before' });
    client.send('EVENT', before);
    expect((await client.ok(before.id))[2]).toBe(true);

    diskFull = true;
    const lost = signEvent(key, { kind: 1, content: 'no room' });
    client.send('EVENT', lost);
    const refused = await client.ok(lost.id);
    expect(refused[2]).toBe(false);
    expect(refused[3]).toMatch(/^error: .*disk/);
    expect(await health()).toMatchObject({ relay_store: { ok: false } });
    expect((await health()).relay_store.error).toMatch(/ENOSPC|space/);

    diskFull = false;
    const after = signEvent(key, { kind: 1, content: 'space again' });
    client.send('EVENT', after);
    expect((await client.ok(after.id))[2]).toBe(true);
    expect((await health()).relay_store).toMatchObject({ ok: true, error: null });

    client.send('REQ', 'all', { authors: [key.hex] });
    expect((await client.stored('all')).map((event) => event.content).sort()).toEqual([
      'before',
      'space again',
    ]);
    client.close();
  });
});
