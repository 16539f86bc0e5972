import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedStore } from '../../src/drive/store/embedded.js';
import type { ContentStore } from '../../src/drive/store/types.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { authorizationHeader, signEvent, type TestKey } from '../helpers/nostr.js';
import { register } from '../helpers/relay-station.js';
import { tempDir } from '../helpers/temp.js';
import { upload } from './http.js';

/** The embedded store on a disk that fills up: while `full`, every import fails as the file system would. */
function fillingStore(store: EmbeddedStore): ContentStore & { full: boolean } {
  const state = { full: false };
  return new Proxy(store as unknown as ContentStore & { full: boolean }, {
    get(target, name, receiver) {
      if (name === 'full') return state.full;
      if (name === 'add' && state.full) {
        return async () => {
          const cause = Object.assign(new Error('ENOSPC: no space left on device, write'), {
            code: 'ENOSPC',
          });
          throw new Error('blockstore put failed', { cause });
        };
      }
      const value = Reflect.get(target, name, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(_target, name, value) {
      if (name !== 'full') return false;
      state.full = value as boolean;
      return true;
    },
  });
}

describe('a full disk', () => {
  let t: TestApp;
  let store: ReturnType<typeof fillingStore>;
  let key: TestKey;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    store = fillingStore(await EmbeddedStore.open(join(dir.path, 'ipfs')));
    t = await buildTestApp({ overrides: { contentStore: store } });
    key = await register(t, 'full@example.org');
  });
  afterAll(async () => {
    await t.close();
    await store.close();
    await cleanup();
  });

  it('answers 507 INSUFFICIENT_STORAGE to drive and Blossom uploads, leaves nothing behind, and recovers', async () => {
    const user = (await t.deps.users.findByEmail('full@example.org'))!;
    store.full = true;
    const form = await upload(t, key, 'photo.jpg', randomBytes(2000));
    expect(form.statusCode).toBe(507);
    expect(form.json()).toEqual({
      detail: expect.stringContaining('disk is full'),
      code: 'INSUFFICIENT_STORAGE',
    });

    const bytes = randomBytes(3000);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const expiration = String(Math.floor(Date.now() / 1000) + 600);
    const token = signEvent(key, {
      kind: 24242,
      tags: [
        ['t', 'upload'],
        ['x', sha256],
        ['expiration', expiration],
      ],
    });
    const put = () =>
      t.app.inject({
        method: 'PUT',
        url: '/upload',
        payload: bytes,
        headers: { authorization: authorizationHeader(token) },
      });
    const refused = await put();
    expect(refused.statusCode).toBe(507);
    expect(refused.headers['x-reason']).toContain('disk is full');
    expect((await t.app.drive.list(user)).files).toEqual([]);
    expect(await readdir(t.app.drive.staging.dir)).toEqual([]);

    // The token was not spent on a refused upload: once there is room, the same request goes through.
    store.full = false;
    const stored = await put();
    expect(stored.statusCode).toBe(201);
    expect((await t.app.drive.list(user)).files.map((f) => f.sha256)).toEqual([sha256]);
  });
});
