import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createDriveService, openContentStore, startDriveGateway } from '../../src/drive/plugin.js';
import { KuboStore } from '../../src/drive/store/kubo.js';
import { tempDir } from '../helpers/temp.js';
import { addRecursiveCid } from './drive-fixture.js';
import { collect, once_ } from './helpers.js';
import { startFakeKubo, type FakeKubo } from './store/fake-kubo.js';

const logger = pino({ level: 'silent' });
const user = (email: string) => ({ email, hex: 'ab'.repeat(32), npub: '', g1pub: null, gps: null });

describe('the drive on either backend', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let kubo: FakeKubo;
  beforeAll(async () => {
    dir = await tempDir('drive-backends-');
    kubo = await startFakeKubo();
  });
  afterAll(async () => {
    await kubo.close();
    await dir.cleanup();
  });

  async function driveOn(ipfsApi: string | null, name: string) {
    const config = await loadConfig({
      HOME: dir.path,
      DATA_ROOT: join(dir.path, name),
      IPFS_GATEWAY: 'http://127.0.0.1:0',
      ...(ipfsApi ? { IPFS_API: ipfsApi } : {}),
    });
    const store = await openContentStore(config);
    const users = { dirFor: (email: string) => join(config.dataRoot, 'nostr', email) };
    // One date for both sides: dates are in the published manifest, hence in the root CIDs compared.
    const drive = createDriveService(config, {
      store,
      users,
      clock: { now: () => Date.UTC(2026, 0, 1) },
      logger,
    });
    return { config, store, drive };
  }

  it('publishes the same root CIDs through Kubo’s RPC as with the embedded store', async () => {
    const embedded = await driveOn(null, 'embedded');
    const viaKubo = await driveOn(kubo.url, 'kubo');
    expect([embedded.store.kind, viaKubo.store.kind]).toEqual(['embedded', 'kubo']);
    const roots: string[][] = [[], []];
    for (const [i, side] of [embedded, viaKubo].entries()) {
      const owner = user('same@example.org');
      const files: Array<[string, string]> = [
        ['a.txt', 'alpha'],
        ['b.png', 'beta'],
        ['a.txt', 'gamma'],
      ];
      for (const [name, text] of files)
        roots[i]!.push(
          (await side.drive.addStream(owner, name, once_(Buffer.from(text)), { kind: 'cli' })).rootCid,
        );
      roots[i]!.push((await side.drive.delete(owner, 'Images/b.png')).rootCid);
      const links = { api: 'http://127.0.0.1:54321', gateway: 'http://127.0.0.1:0' };
      expect(roots[i]!.at(-1)).toBe(await addRecursiveCid(side.drive.driveDir(owner), links));
    }
    expect(roots[1]).toEqual(roots[0]);
    // Kubo was asked to pin the current root and the file wrappers, and unpin the earlier roots.
    const pins = await viaKubo.store.pins();
    expect(pins).toContain(roots[1]!.at(-1));
    expect(pins).not.toContain(roots[1]![0]);
    const manifest = await viaKubo.drive.list(user('same@example.org'));
    const numbered = manifest.files.find((f) => f.name === 'a (1).txt')!;
    const copy = await viaKubo.drive.copyFrom(user('other@example.org'), numbered.ipfs_link);
    expect(copy.entry).toMatchObject({ path: 'Documents/a (1).txt', cid: numbered.cid });
    await embedded.store.close();
  });

  it('starts the read-only gateway for the embedded store only', async () => {
    const embedded = await driveOn(null, 'gateway');
    const gateway = await startDriveGateway(embedded.config, embedded.store, logger);
    expect(gateway).not.toBeNull();
    try {
      const added = await embedded.store.add(once_(Buffer.from('hello world\n')));
      const response = await fetch(`${gateway!.url}/ipfs/${added.cid}`);
      expect(Buffer.from(await collect(response.body as AsyncIterable<Uint8Array>)).toString()).toBe(
        'hello world\n',
      );
    } finally {
      await gateway!.close();
      await embedded.store.close();
    }
    const viaKubo = await driveOn(kubo.url, 'gateway-kubo');
    expect(viaKubo.store).toBeInstanceOf(KuboStore);
    expect(await startDriveGateway(viaKubo.config, viaKubo.store, logger)).toBeNull();
  });
});
