import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN_UPLANETNAME } from '../../src/config/config.js';
import { UserStore } from '../../src/identity/user-store.js';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { openLmdbEventStore } from '../../src/relay/store/lmdb-event-store.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish, startTestRelay, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { addUser, startInstance, type Instance } from './payment-harness.js';

describe('station view fed by the relay streams', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay;
  let station: Instance;
  let app: TestApp;
  let local: Awaited<ReturnType<typeof addUser>>;

  beforeEach(async () => {
    dir = await tempDir('view-');
    relay = await startTestRelay({ storePath: join(dir.path, 'relay') });
    const users = await UserStore.open(join(dir.path, 'game'), {
      uplanetName: ORIGIN_UPLANETNAME,
      watch: false,
    });
    local = await addUser(users, 'local@example.org');
    users.close();
    station = await startInstance({ root: dir.path, relayUrl: relay.url });
    app = await buildTestApp({ overrides: { view: station.view } });
  });

  afterEach(async () => {
    await app.close();
    await station.stop();
    await relay.close();
    await dir.cleanup();
  });

  const get = async (url: string) => {
    const response = await app.app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() };
  };

  it('replaces a profile with its kind-0 update', async () => {
    const author = newKey();
    const now = Math.floor(Date.now() / 1000);
    await publish(
      relay.url,
      signEvent(author, { kind: 0, content: '{"name":"before"}', created_at: now - 10 }),
    );
    await waitFor(() => station.view.profile(author.hex) !== null);
    await publish(
      relay.url,
      signEvent(author, { kind: 0, content: '{"name":"after","g1pub":"nope"}', created_at: now }),
    );
    await waitFor(() => station.view.profile(author.hex)?.name === 'after');
    expect(await get(`/api/view/profile/${author.npub}`)).toMatchObject({
      status: 200,
      body: { pubkey: author.hex, name: 'after', g1pub: null },
    });
    expect((await get(`/api/view/profile/${newKey().hex}`)).body).toMatchObject({
      code: 'PROFILE_NOT_FOUND',
    });
    expect(await get('/api/view/profile/nobody')).toMatchObject({
      status: 400,
      body: { code: 'BAD_PUBKEY' },
    });
  });

  it('files a geo-tagged note under its UMAP cell', async () => {
    const author = newKey();
    const note = signEvent(author, {
      kind: 1,
      content: 'Free apples at the market',
      tags: [
        ['latitude', '43.6047'],
        ['longitude', '1.4442'],
      ],
    });
    await publish(relay.url, note);
    await publish(relay.url, signEvent(author, { kind: 1, content: 'no place' }));
    await waitFor(() => station.view.geo.size === 1);
    expect(await get('/api/geo/messages?lat=43.60&lon=1.44')).toEqual({
      status: 200,
      body: {
        center: { lat: 43.6, lon: 1.44 },
        umap: { lat: 43.6, lon: 1.44 },
        deg: 0.01,
        count: 1,
        messages: [
          {
            id: note.id,
            pubkey: author.hex,
            created_at: note.created_at,
            content: 'Free apples at the market',
            lat: 43.6047,
            lon: 1.4442,
            umap: { lat: 43.6, lon: 1.44 },
          },
        ],
      },
    });
    expect((await get('/api/geo/messages?lat=43.62&lon=1.44')).body.count).toBe(0);
    expect((await get('/api/geo/messages?lat=43.62&lon=1.44&deg=0.05')).body.count).toBe(1);
    expect((await get('/api/geo/messages?lat=north&lon=1.44')).body.code).toBe('BAD_COORDINATES');
    expect((await get('/api/geo/messages?lat=43&lon=1&deg=5')).body.code).toBe('BAD_DEG');
  });

  it("keeps a local user's follows, videos and playlist, and not a stranger's", async () => {
    const stranger = newKey();
    const followed = newKey().hex;
    await publish(relay.url, signEvent(local.key, { kind: 3, tags: [['p', followed]] }));
    await publish(relay.url, signEvent(stranger, { kind: 3, tags: [['p', followed]] }));
    await publish(
      relay.url,
      signEvent(local.key, {
        kind: 21,
        tags: [
          ['title', 'Clip'],
          ['imeta', 'url https://v.org/c.mp4'],
        ],
      }),
    );
    await publish(relay.url, signEvent(local.key, { kind: 10001, tags: [['e', 'e'.repeat(64)]] }));
    await waitFor(
      () => station.view.counts.follows.ignored === 1 && station.view.playlistOf(local.key.hex) !== null,
    );
    expect((await get(`/api/view/follows/${local.key.npub}`)).body).toMatchObject({
      follows: [followed],
      count: 1,
    });
    expect((await get(`/api/view/follows/${stranger.hex}`)).status).toBe(404);
    expect((await get(`/api/view/videos/${local.key.hex}`)).body).toMatchObject({
      count: 1,
      videos: [{ kind: 21, title: 'Clip', url: 'https://v.org/c.mp4' }],
    });
    expect((await get(`/api/view/playlists/${local.key.hex}`)).body.items).toEqual([
      { type: 'e', value: 'e'.repeat(64), relay: null },
    ]);
  });

  it('drops and counts malformed events and carries on with the next ones', async () => {
    const author = newKey();
    await publish(relay.url, signEvent(author, { kind: 0, content: '{broken' }));
    await publish(
      relay.url,
      signEvent(author, {
        kind: 1,
        content: 'x',
        tags: [
          ['latitude', 'abc'],
          ['longitude', '1'],
        ],
      }),
    );
    await publish(relay.url, signEvent(local.key, { kind: 21, tags: [['title', 'no url']] }));
    await publish(relay.url, signEvent(newKey(), { kind: 0, content: '{"name":"fine"}' }));
    await waitFor(
      () => station.view.counts.profiles.applied === 1 && station.view.counts.videos.malformed === 1,
    );
    const { body } = await get('/api/view/stats');
    expect(body.counts.profiles).toMatchObject({ malformed: 1, applied: 1 });
    expect(body.counts.geo.malformed).toBe(1);
    expect(body.sizes).toMatchObject({ profiles: 1, geo: 0, videos: 0 });
  });

  it('gets what was published while the relay was away, after reconnecting', async () => {
    const { port } = relay;
    await relay.close();
    await waitFor(() => !station.client.connected);
    // Stored while the station was disconnected: the relay starts with it, so only the resubscription
    // (from the newest created_at seen) can bring it.
    const author = newKey();
    const meanwhile = signEvent(author, { kind: 0, content: '{"name":"meanwhile"}' });
    const store = await openLmdbEventStore({ path: join(dir.path, 'relay') });
    await store.put(meanwhile);
    await store.close();
    relay = await startTestRelay({ port, storePath: join(dir.path, 'relay') });
    await waitFor(() => station.view.profile(author.hex)?.name === 'meanwhile');
    expect(station.client.stats.reconnects).toBeGreaterThan(0);
  });
});
