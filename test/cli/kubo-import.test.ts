import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CarWriter } from '@ipld/car/writer';
import * as dagPb from '@ipld/dag-pb';
import { create } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { openDriveDb } from '../../src/drive/db/drive-db.js';
import { openDriveServices } from '../../src/drive/services.js';
import { BlockStorage } from '../../src/drive/store/block-storage.js';
import { KuboStore } from '../../src/drive/store/kubo.js';
import { UserStore } from '../../src/identity/user-store.js';
import { startFakeKubo, type FakeKubo } from '../drive/store/fake-kubo.js';
import { tempDir } from '../helpers/temp.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const logger = pino({ level: 'silent' });
const EMAILS = ['alice@example.org', 'bob@example.org'];

interface Uploaded {
  email: string;
  root: string;
  /** `ipfs_link` of each file, and the sha256 of its bytes. */
  files: Array<{ link: string; sha256: string }>;
}

async function* once(bytes: Buffer) {
  yield bytes;
}

/** Every CID reachable from `root` in the embedded store, read block by block. */
async function dagOf(blocks: BlockStorage, root: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  const stack = [CID.parse(root)];
  for (let cid = stack.pop(); cid; cid = stack.pop()) {
    if (found.has(cid.toString())) continue;
    const parts: Uint8Array[] = [];
    for await (const part of blocks.get(cid)) parts.push(part);
    const bytes = Buffer.concat(parts);
    found.set(cid.toString(), bytes);
    for (const link of dagPb.decode(bytes).Links) stack.push(link.Hash);
  }
  return found;
}

describe('station kubo import', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let config: Config;
  let kubo: FakeKubo;
  const uploaded: Uploaded[] = [];
  /** The drive's file of more than 1 MiB, which the embedded store holds by a hard link, not as blocks. */
  let heldFile = '';

  const station = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'kubo', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir.path, DATA_ROOT: config.dataRoot },
    });

  beforeAll(async () => {
    dir = await tempDir();
    config = await loadConfig({
      HOME: dir.path,
      DATA_ROOT: join(dir.path, 'game'),
      TMP_DIR: join(dir.path, 'tmp'),
    });
    const users = await UserStore.open(config.dataRoot, {
      uplanetName: config.uplanetName,
      logger,
      watch: false,
    });
    const services = await openDriveServices(config, { users, clock: systemClock, logger });
    const { drive } = services;
    expect(services.store.kind).toBe('embedded');
    const contents: Array<Array<[string, Buffer]>> = [
      [['note.txt', Buffer.from('a small note')]],
      // Past 1 MiB: the embedded store holds the file itself and serves its leaves from it (held-files.ts).
      [
        ['photo.bin', randomBytes(1536 * 1024 + 17)],
        ['hello.txt', Buffer.from('hello')],
      ],
    ];
    for (const [i, email] of EMAILS.entries()) {
      const user = (await users.create({ email })).record;
      const files: Uploaded['files'] = [];
      let root = '';
      for (const [name, bytes] of contents[i]!) {
        const added = await drive.addStream(user, name, once(bytes), { kind: 'cli' });
        root = added.rootCid;
        files.push({ link: added.entry.ipfs_link, sha256: createHash('sha256').update(bytes).digest('hex') });
        if (bytes.length > 1024 * 1024) heldFile = join(users.dirFor(email), added.filePath);
      }
      uploaded.push({ email, root, files });
    }
    await services.close();
    users.close();
    kubo = await startFakeKubo();
  });
  afterAll(async () => {
    await kubo?.close();
    await dir.cleanup();
  });

  it('sends every block of each drive to Kubo with matching CIDs and pins the roots, twice over', async () => {
    // Its leaves are read from the held file (held-files.ts), not from LMDB.
    const held = await stat(heldFile);
    expect(held.nlink).toBe(2);
    const links = await readdir(join(config.dataRoot, 'ipfs-store', 'files'));
    const inodes = await Promise.all(
      links.map(async (name) => (await stat(join(config.dataRoot, 'ipfs-store', 'files', name))).ino),
    );
    expect(inodes).toContain(held.ino);
    const expected = uploaded.map((u) =>
      expect.stringMatching(new RegExp(`^${u.email}\\t${u.root}\\t\\d+\\t\\d+$`)),
    );
    for (let pass = 0; pass < 2; pass++) {
      const { stdout } = await station('import', '--ipfs-api', kubo.url);
      expect(stdout.trim().split('\n')).toEqual(expected);
    }
    const storeDir = join(config.dataRoot, 'ipfs-store');
    const db = await openDriveDb(storeDir);
    try {
      const blocks = await BlockStorage.open(storeDir, db);
      for (const drive of uploaded) {
        const dag = await dagOf(blocks, drive.root);
        for (const [cid, bytes] of dag) expect(Buffer.from(kubo.imported.get(cid) ?? [])).toEqual(bytes);
      }
    } finally {
      await db.close();
    }
    const viaKubo = new KuboStore(kubo.url);
    const pins = await viaKubo.pins();
    for (const drive of uploaded) {
      expect(pins).toContain(drive.root);
      for (const file of drive.files) {
        expect(pins).toContain(file.link.split('/')[0]);
        const hash = createHash('sha256');
        for await (const chunk of viaKubo.cat(file.link)) hash.update(chunk);
        expect(hash.digest('hex')).toBe(file.sha256);
      }
    }
  });

  it('imports one user with --user, answers JSON with --json, and refuses an unknown user', async () => {
    const bob = uploaded[1]!;
    const { stdout } = await station('import', '--ipfs-api', kubo.url, '--user', bob.email, '--json');
    const line = JSON.parse(stdout) as {
      email: string;
      root: string;
      pinned: string[];
      blocks: number;
      bytes: number;
    };
    expect(line).toMatchObject({ email: bob.email, root: bob.root });
    // The root, a wrapper per file; 1.5 MiB in 256 KiB leaves is at least 7 blocks.
    expect(line.pinned).toEqual(
      expect.arrayContaining([bob.root, ...bob.files.map((f) => f.link.split('/')[0])]),
    );
    expect(line.blocks).toBeGreaterThan(7);
    expect(line.bytes).toBeGreaterThan(1536 * 1024);
    await expect(
      station('import', '--ipfs-api', kubo.url, '--user', 'nobody@example.org'),
    ).rejects.toMatchObject({
      code: 1,
    });
  });

  it('has a fake Kubo that refuses a block whose bytes do not match its CID', async () => {
    const node = dagPb.encode({ Data: randomBytes(32), Links: [] });
    const cid = CID.createV0(await sha256.digest(node));
    const { writer, out } = CarWriter.create([cid]);
    void writer
      .put({ cid, bytes: dagPb.encode({ Data: randomBytes(32), Links: [] }) })
      .then(() => writer.close());
    const answers = create({ url: kubo.url }).dag.import([out], { pinRoots: false });
    await expect(
      (async () => {
        for await (const _ of answers) void _;
      })(),
    ).rejects.toThrow(/do not match/);
    expect(kubo.imported.has(cid.toString())).toBe(false);
  });

  it('fails with a message when Kubo does not answer', async () => {
    await expect(station('import', '--ipfs-api', 'http://127.0.0.1:9')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('does not answer'),
    });
    await expect(station('import')).rejects.toMatchObject({ code: 2 });
  });
});
