import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { importer, type ImportCandidate } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { startDriveGateway } from '../../src/drive/plugin.js';
import type { DriveServices } from '../../src/drive/services.js';
import { KuboStore } from '../../src/drive/store/kubo.js';
import type { ContentStore } from '../../src/drive/store/types.js';
import { tempDir } from '../helpers/temp.js';
import { openDriveAt, ROOT_ENTRIES } from './drive-fixture.js';
import { collect, ipfsCidOf, once_ } from './helpers.js';
import { startFakeKubo, type FakeKubo } from './store/fake-kubo.js';

const logger = pino({ level: 'silent' });
/** The index keys drives by hex: each e-mail its own. */
const user = (email: string) => ({
  email,
  hex: createHash('sha256').update(email).digest('hex'),
  npub: '',
  g1pub: null,
  gps: null,
});
/** Past PLAIN_FOLDER_MAX_ESTIMATE (2 KiB of names and CIDs): Documents becomes a HAMT shard, edited along paths. */
const NOTES = 40;
const note = (i: number) => `meeting-notes-${String(i).padStart(2, '0')}.txt`;

/** What `ipfs add -r` (ipfs-unixfs-importer's own builder, not the drive's) makes of `entries` under `top`. */
async function addRecursive(top: string, entries: Array<[string, Uint8Array]>): Promise<string> {
  const candidates: ImportCandidate[] = [{ path: top }];
  for (const [name, content] of entries) candidates.push({ path: `${top}/${name}`, content });
  let cid = '';
  const sink = { put: async (key: CID) => key };
  for await (const entry of importer(candidates, sink, { profile: 'unixfs-v0-2015' }))
    if (entry.path === top) cid = entry.cid.toString();
  return cid;
}

/** What `ipfs add -w` makes of one file: a directory holding it under its name. */
async function addWrapped(name: string, content: Uint8Array): Promise<string> {
  let cid = '';
  const sink = { put: async (key: CID) => key };
  const options = { profile: 'unixfs-v0-2015', wrapWithDirectory: true } as const;
  for await (const entry of importer([{ path: name, content }], sink, options))
    if (entry.path === '') cid = entry.cid.toString();
  return cid;
}

/** Every block of the DAG under `root`, by CID, read block by block. */
async function dagOf(store: ContentStore, root: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  const pending = [root];
  for (let cid = pending.pop(); cid; cid = pending.pop()) {
    if (found.has(cid)) continue;
    const bytes = Buffer.from(await store.getBlock(cid));
    found.set(cid, bytes);
    if (bytes[0] === 0x12) for (const link of dagPb.decode(bytes).Links) pending.push(link.Hash.toString());
  }
  return found;
}

describe('the drive on either backend', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let kubo: FakeKubo;
  const opened: DriveServices[] = [];
  beforeAll(async () => {
    dir = await tempDir('drive-backends-');
    kubo = await startFakeKubo();
  });
  afterAll(async () => {
    for (const services of opened) await services.close();
    await kubo.close();
    await dir.cleanup();
  });

  async function driveOn(ipfsApi: string | null, name: string): Promise<DriveServices> {
    // One date for both sides: dates are in the published manifest, hence in the root CIDs compared.
    const services = await openDriveAt(join(dir.path, name), {
      quotaBytes: 1024 ** 3,
      clock: { now: () => Date.UTC(2026, 0, 1) },
      env: ipfsApi ? { IPFS_API: ipfsApi } : {},
    });
    opened.push(services);
    return services;
  }

  it('publishes the same roots, blocks and lists through Kubo’s RPC as with the embedded store', async () => {
    const embedded = await driveOn(null, 'embedded');
    const viaKubo = await driveOn(kubo.url, 'kubo');
    expect([embedded.store.kind, viaKubo.store.kind]).toEqual(['embedded', 'kubo']);
    expect(viaKubo.embedded).toBeNull();
    const owner = user('same@example.org');
    const roots: string[][] = [[], []];
    const smallFolders: string[] = [];
    for (const [i, side] of [embedded, viaKubo].entries()) {
      const add = async (name: string, text: string) =>
        (await side.drive.addStream(owner, name, once_(Buffer.from(text)), { kind: 'cli' })).rootCid;
      for (const [name, text] of [
        ['a.txt', 'alpha'],
        ['b.png', 'beta'],
        ['a.txt', 'gamma'],
      ] as const)
        roots[i]!.push(await add(name, text));
      roots[i]!.push((await side.drive.delete(owner, 'Images/b.png')).rootCid);
      // A small folder is still a plain directory, what `ipfs add -r` makes of the folder on disk.
      const documents = join(side.drive.driveDir(owner), 'Documents');
      const onDisk = await Promise.all(
        (await readdir(documents)).map(
          async (n) => [n, await readFile(join(documents, n))] as [string, Buffer],
        ),
      );
      expect(onDisk.map(([n]) => n).sort()).toEqual(['a (1).txt', 'a.txt']);
      smallFolders.push((await side.store.stat(`${roots[i]!.at(-1)!}/Documents`)).cid);
      expect(smallFolders.at(-1)).toBe(await addRecursive('Documents', onDisk));
      for (let n = 0; n < NOTES; n++) roots[i]!.push(await add(note(n), `notes of meeting ${n}`));
      for (const n of [3, 17])
        roots[i]!.push((await side.drive.delete(owner, `Documents/${note(n)}`)).rootCid);
    }
    expect(new Set(roots[0]).size).toBe(roots[0]!.length);
    expect(roots[1]).toEqual(roots[0]);
    expect(await viaKubo.drive.list(owner)).toEqual(await embedded.drive.list(owner));

    const root = roots[0]!.at(-1)!;
    for (const side of [embedded, viaKubo]) {
      expect((await side.store.ls(root)).map((e) => e.name)).toEqual(ROOT_ENTRIES);
      const documents = await side.store.stat(`${root}/Documents`);
      const node = dagPb.decode(await side.store.getBlock(documents.cid));
      expect(UnixFS.unmarshal(node.Data!).type).toBe('hamt-sharded-directory');
      expect(await side.store.ls(documents.cid)).toHaveLength(NOTES); // the notes left and a.txt, a (1).txt;
      expect((await collect(side.store.cat(`${root}/Documents/${note(NOTES - 1)}`))).toString()).toBe(
        `notes of meeting ${NOTES - 1}`,
      );
    }
    // The same blocks on both sides, byte for byte: the tree was built the same way over either store.
    const blocks = await dagOf(embedded.store, root);
    expect(blocks.size).toBeGreaterThan(NOTES + 10);
    for (const [cid, bytes] of blocks) expect(Buffer.from(await viaKubo.store.getBlock(cid))).toEqual(bytes);
    // Over Kubo, the previous tree's nodes were read back from the daemon (block/get), not kept aside.
    expect(kubo.requests.filter((r) => r.path === 'block/get').length).toBeGreaterThan(0);

    // Each file's CID is `ipfs add`'s, and its ipfs_link is `ipfs add -w`'s wrapper; Kubo pins both and the root.
    const manifest = await viaKubo.drive.list(owner);
    const pins = await viaKubo.store.pins();
    expect(pins).toContain(root);
    for (const file of manifest.files) {
      const path = join(embedded.drive.driveDir(owner), file.path);
      expect(file.cid).toBe(await ipfsCidOf(path));
      const [wrapper, name] = file.ipfs_link.split('/') as [string, string];
      expect(name).toBe(file.name);
      expect(wrapper).toBe(await addWrapped(name, await readFile(path)));
      expect(pins).toContain(wrapper);
    }

    const numbered = manifest.files.find((f) => f.name === 'a (1).txt')!;
    const copy = await viaKubo.drive.copyFrom(user('other@example.org'), numbered.ipfs_link);
    expect(copy.entry).toMatchObject({ path: 'Documents/a (1).txt', cid: numbered.cid });
  });

  it('starts the read-only gateway for the embedded store only', async () => {
    const gatewayConfig = async (name: string) =>
      loadConfig({ HOME: dir.path, DATA_ROOT: join(dir.path, name), IPFS_GATEWAY: 'http://127.0.0.1:0' });
    const embedded = await driveOn(null, 'gateway');
    const gateway = await startDriveGateway(await gatewayConfig('gateway'), embedded.store, logger);
    expect(gateway).not.toBeNull();
    try {
      const added = await embedded.store.add(once_(Buffer.from('hello world\n')));
      const response = await fetch(`${gateway!.url}/ipfs/${added.cid}`);
      expect(Buffer.from(await collect(response.body as AsyncIterable<Uint8Array>)).toString()).toBe(
        'hello world\n',
      );
    } finally {
      await gateway!.close();
    }
    const viaKubo = await driveOn(kubo.url, 'gateway-kubo');
    expect(viaKubo.store).toBeInstanceOf(KuboStore);
    expect(await startDriveGateway(await gatewayConfig('gateway-kubo'), viaKubo.store, logger)).toBeNull();
  });
});
