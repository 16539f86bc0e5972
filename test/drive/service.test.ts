import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect, once_ } from './helpers.js';
import { driveFixture, filesIn, ROOT_ENTRIES, type DriveFixture } from './drive-fixture.js';
import { expectPublishedAsOnDisk, expectSamePublishedDrive } from './published-tree.js';
import { settleIntents } from '../../src/drive/fs-intents.js';
import { processIdentity, processInstance } from '../../src/process/identity.js';
import { InvalidInput, NotFound } from '../../src/errors.js';

/** What a process of this boot that is gone (killed mid-change) named itself: its pid runs no more. */
function goneProcess(): string {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return `${processIdentity.split(':')[0]}:${pid}:0123456789ab`;
}

describe('drive service', () => {
  let fx: DriveFixture;
  beforeEach(async () => {
    fx = await driveFixture({ quotaBytes: 1024 * 1024 });
  });
  afterEach(() => fx.close());

  it('files an upload by extension, hashes it, and publishes its folders as `ipfs add -r` makes them', async () => {
    const alice = fx.user('alice@example.org');
    const result = await fx.addText(alice, 'hello.txt', 'hello world\n');
    expect(result.entry).toMatchObject({
      path: 'Documents/hello.txt',
      file_type: 'document',
      mime_type: 'text/plain',
      size: 12,
      sha256: 'a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447',
      cid: 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o',
      source: { kind: 'cli' },
    });
    expect(result.filePath).toBe('APP/uDRIVE/Documents/hello.txt');
    const driveDir = fx.drive.driveDir(alice);
    expect(result.targetDirectory).toBe(join(driveDir, 'Documents'));
    expect(await readFile(join(driveDir, 'Documents', 'hello.txt'), 'utf8')).toBe('hello world\n');
    await fx.addText(alice, 'photo.JPEG', 'not really a jpeg');
    const last = await fx.addText(alice, 'song.flac', 'la la la');
    expect(last.entry.category).toBe('Music');

    const manifest = await fx.drive.list(alice);
    expect(manifest.files.map((f) => f.path)).toEqual([
      'Documents/hello.txt',
      'Images/photo.JPEG',
      'Music/song.flac',
    ]);
    expect(manifest).toMatchObject({
      root_cid: last.rootCid,
      total_files: 3,
      owner_email: 'alice@example.org',
    });
    // The four folders, then the explorer and the public manifest (links sorted by name, as Kubo does).
    expect((await fx.store.ls(last.rootCid)).map((e) => e.name)).toEqual(ROOT_ENTRIES);
    await expectPublishedAsOnDisk(fx.store, last.rootCid, driveDir, manifest);
    // The file is reachable under its name through its wrapper, which the drive keeps while it lists the file
    // (one reference); the current root is the drive's head, the roots answered before are kept only for
    // STORE_KEEP_ROOTS_S (handed out, never referenced).
    expect((await collect(fx.store.cat(result.entry.ipfs_link))).toString()).toBe('hello world\n');
    const { db, reads } = fx.services;
    expect(db.pinRefs.get(result.entry.ipfs_link.split('/')[0]!)).toBe(1);
    expect(reads.head(alice.hex)?.root).toBe(last.rootCid);
    expect(db.roots.get(result.rootCid)).toEqual(expect.any(Number));
    expect(db.pinRefs.get(result.rootCid)).toBeUndefined();
  });

  it('stages what may be cookies private from creation and the rest readable, as drive files are', async () => {
    const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
    const cookies = await fx.drive.staging.receive(
      once_(Buffer.from('# Netscape HTTP Cookie File\n.example.org\tTRUE\t/\tTRUE\t0\tsid\tsecret\n')),
      [],
    );
    const mentionsCookies = await fx.drive.staging.receive(
      once_(Buffer.from('notes about a Cookie jar')),
      [],
    );
    const photo = await fx.drive.staging.receive(once_(Buffer.alloc(1000, 0xab)), []);
    expect([cookies.mode, mentionsCookies.mode, photo.mode]).toEqual([0o600, 0o600, 0o644]);
    expect(await Promise.all([cookies, mentionsCookies].map((staged) => modeOf(staged.path)))).toEqual([
      0o600, 0o600,
    ]);
    await Promise.all([cookies, mentionsCookies, photo].map((staged) => fx.drive.staging.discard(staged)));
    // In the drive, a file staged either way is readable: published content (made 644 under the umask, as
    // every file the station makes; changed to 644 when it was staged private).
    await writeFile(join(fx.root, 'probe'), '', { mode: 0o644 });
    const readable = await modeOf(join(fx.root, 'probe'));
    const alice = fx.user('alice@example.org');
    const staged = await fx.addText(alice, 'jar.txt', 'a Cookie recipe');
    const plain = await fx.addText(alice, 'plain.txt', 'plain text');
    const driveDir = fx.drive.driveDir(alice);
    expect(
      await Promise.all(
        [staged, plain].map((result) => modeOf(join(driveDir, result.entry.category, result.entry.name))),
      ),
    ).toEqual([0o644, readable]);
  });

  it('keeps Unicode names, strips paths and leading dots, and numbers collisions', async () => {
    const bob = fx.user('bob@example.org');
    const names = [];
    for (const name of [
      'été.jpg',
      '../../x',
      '..\\..\\evil.png',
      '.bashrc',
      'a.jpg',
      'a.jpg',
      'a.jpg',
      'e\u0301te\u0301.jpg',
    ])
      names.push((await fx.addText(bob, name, `content of ${name}`)).entry.path);
    expect(names).toEqual([
      'Images/été.jpg',
      'Documents/x',
      'Images/evil.png',
      'Documents/bashrc',
      'Images/a.jpg',
      'Images/a (1).jpg',
      'Images/a (2).jpg',
      'Images/été (1).jpg', // NFD from macOS is the same name as NFC
    ]);
    const drive = await filesIn(fx.drive.driveDir(bob));
    expect(drive.filter((f) => f.includes('..') || f.startsWith('x'))).toEqual([]);
    expect(drive).toContain(join('Images', 'été.jpg'));
  });

  it('numbers the names of one batch apart, around files the manifest does not list', async () => {
    const bob = fx.user('bob@example.org');
    await fx.addText(bob, 'first.txt', 'makes the drive');
    // Put there by hand: not in the manifest, but taken.
    const images = join(fx.drive.driveDir(bob), 'Images');
    await mkdir(images, { recursive: true });
    await writeFile(join(images, 'b.jpg'), 'by hand');
    await writeFile(join(images, 'b (1).jpg'), 'by hand too');
    const paths = await Promise.all(
      Array.from({ length: 6 }, (_, i) => fx.addText(bob, 'b.jpg', `upload ${i}`).then((r) => r.entry.path)),
    );
    expect(new Set(paths).size).toBe(6);
    expect(paths.sort()).toEqual(['(2)', '(3)', '(4)', '(5)', '(6)', '(7)'].map((n) => `Images/b ${n}.jpg`));
    expect(await readFile(join(images, 'b.jpg'), 'utf8')).toBe('by hand');
    const listed = (await fx.drive.list(bob)).files.map((f) => f.path);
    expect(listed.filter((path) => path.startsWith('Images/'))).toHaveLength(6);
  });

  it('keeps all of 20 concurrent uploads of one user, across two processes, with one consistent root', async () => {
    const carol = fx.user('carol@example.org');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? fx.drive : fx.otherProcess).addStream(carol, 'same.txt', once_(Buffer.from(`n°${i}`)), {
          kind: 'upload',
        }),
      ),
    );
    const manifest = await fx.drive.list(carol);
    expect(manifest.total_files).toBe(20);
    expect(new Set(manifest.files.map((f) => f.name)).size).toBe(20);
    expect(new Set(results.map((r) => r.entry.path)).size).toBe(20);
    await expectPublishedAsOnDisk(fx.store, manifest.root_cid!, fx.drive.driveDir(carol), manifest);
    // Batches: uploads that waited for the drive together were published together, in fewer roots.
    const roots = new Set(results.map((r) => r.rootCid));
    expect(roots.size).toBeLessThan(20);
    // Each answer's root holds its file, and is kept as handed out (STORE_KEEP_ROOTS_S); the last is the head.
    for (const r of results)
      expect((await fx.store.stat(`${r.rootCid}/${r.entry.path}`)).cid).toBe(r.entry.cid);
    expect([...roots].filter((root) => fx.services.db.roots.get(root) === undefined)).toEqual([]);
    expect(fx.services.reads.head(carol.hex)?.root).toBe(manifest.root_cid);
  });

  it('deletes (unknown 404, escaping 400) and a re-upload publishes the same drive again', async () => {
    // Dates are in the published manifest: the same files at the same dates publish the same drive.
    fx.clock.frozen = Date.UTC(2026, 0, 1);
    const dave = fx.user('dave@example.org');
    const before = await fx.addText(dave, 'keep.txt', 'keep');
    const added = await fx.addText(dave, 'photo.png', 'png bytes');
    const removed = await fx.drive.delete(dave, 'Images/photo.png');
    expect(removed.rootCid).toBe(before.rootCid);
    expect(await filesIn(join(fx.drive.driveDir(dave), 'Images'))).toEqual([]);
    // Its wrapper is no longer kept by the drive, only readable for a while, as a superseded root.
    const wrapper = added.entry.ipfs_link.split('/')[0]!;
    expect(fx.services.db.pinRefs.get(wrapper)).toBeUndefined();
    expect(fx.services.db.roots.get(wrapper)).toEqual(expect.any(Number));
    const again = await fx.addText(dave, 'photo.png', 'png bytes');
    expect(again.entry.path).toBe('Images/photo.png');
    await expectSamePublishedDrive(fx.store, again.rootCid, added.rootCid);
    await expect(fx.drive.delete(dave, 'APP/uDRIVE/Images/photo.png')).resolves.toBeTruthy();
    await expect(fx.drive.delete(dave, 'Images/photo.png')).rejects.toBeInstanceOf(NotFound);
    await expect(fx.drive.delete(dave, 'Images/../../HEX')).rejects.toBeInstanceOf(InvalidInput);
    await expect(fx.drive.delete(dave, '/etc/passwd')).rejects.toBeInstanceOf(InvalidInput);
    await expect(fx.drive.delete(dave, 'manifest.json')).rejects.toBeInstanceOf(NotFound);
  });

  it('refuses what exceeds the quota and leaves nothing behind, nor after a broken stream', async () => {
    const erin = fx.user('erin@example.org');
    await fx.addText(erin, 'small.txt', 'x'.repeat(600 * 1024));
    const driveDir = fx.drive.driveDir(erin);
    const before = await fx.drive.list(erin);
    await expect(fx.addText(erin, 'big.txt', 'y'.repeat(500 * 1024))).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
    });
    async function* broken() {
      yield Buffer.alloc(1000);
      throw new Error('connection reset');
    }
    await expect(fx.drive.addStream(erin, 'half.txt', broken(), { kind: 'upload' })).rejects.toThrow('reset');
    expect(await fx.drive.list(erin)).toEqual(before);
    expect(await filesIn(join(driveDir, 'Documents'))).toEqual(['small.txt']);
    expect(await filesIn(join(fx.root, '.drive-staging'))).toEqual([]);
  });

  it('makes a category folder again when it was removed after the first upload into it', async () => {
    const gus = fx.user('gus@example.org');
    await fx.addText(gus, 'one.txt', 'one');
    const folder = join(fx.drive.driveDir(gus), 'Documents');
    await rm(folder, { recursive: true });
    const two = await fx.addText(gus, 'two.txt', 'two');
    expect(two.entry.path).toBe('Documents/two.txt');
    expect(await readFile(join(folder, 'two.txt'), 'utf8')).toBe('two');
  });

  it('finishes at start the file operations of changes whose process died after committing them', async () => {
    const fay = fx.user('fay@example.org');
    for (const name of ['one', 'two', 'three', 'four', 'five']) await fx.addText(fay, `${name}.txt`, name);
    const driveDir = fx.drive.driveDir(fay);
    const { db, reads, store } = fx.services;
    const gone = goneProcess();
    // Committed, then killed before moving its staged upload in.
    await rm(join(driveDir, 'Documents', 'two.txt'));
    const staged = join(fx.root, '.drive-staging', '.two.part');
    await mkdir(join(fx.root, '.drive-staging'), { recursive: true });
    await writeFile(staged, 'two');
    await db.intents.put([fay.hex, 'a'], { op: 'place', path: 'Documents/two.txt', staged, holder: gone });
    // The same, its staged upload lost meanwhile: written again from the store.
    await rm(join(driveDir, 'Documents', 'three.txt'));
    const lost = join(fx.root, '.drive-staging', '.three.part');
    await db.intents.put([fay.hex, 'b'], {
      op: 'place',
      path: 'Documents/three.txt',
      staged: lost,
      holder: gone,
    });
    // A deletion committed, its file not removed yet.
    await fx.drive.delete(fay, 'Documents/four.txt');
    await writeFile(join(driveDir, 'Documents', 'four.txt'), 'four');
    await db.intents.put([fay.hex, 'c'], { op: 'remove', path: 'Documents/four.txt', holder: gone });
    // A removal owed for a path listed again since, and a live process's move (still at work): left alone.
    await db.intents.put([fay.hex, 'd'], { op: 'remove', path: 'Documents/one.txt', holder: gone });
    await rm(join(driveDir, 'Documents', 'five.txt'));
    await db.intents.put([fay.hex, 'e'], {
      op: 'place',
      path: 'Documents/five.txt',
      staged: join(fx.root, '.drive-staging', '.five.part'),
      holder: processInstance,
    });

    const settled = await settleIntents({
      db,
      reads,
      store,
      driveDirOf: (hex) => (hex === fay.hex ? driveDir : null),
      logger: pino({ level: 'silent' }),
    });
    expect(settled).toBe(4);
    // Left: the live process's own (its move of five.txt, and what its changes did, cleared by the next one).
    expect([...db.intents.getRange()].filter(({ value }) => value.holder !== processInstance)).toEqual([]);
    expect(db.intents.get([fay.hex, 'e'])).toBeDefined();
    expect(await filesIn(join(driveDir, 'Documents'))).toEqual(['one.txt', 'three.txt', 'two.txt']);
    expect(await readFile(join(driveDir, 'Documents', 'two.txt'), 'utf8')).toBe('two');
    expect(await readFile(join(driveDir, 'Documents', 'three.txt'), 'utf8')).toBe('three');
    expect((await stat(join(driveDir, 'Documents', 'three.txt'))).mode & 0o777).toBe(
      (await stat(join(driveDir, 'Documents', 'one.txt'))).mode & 0o777,
    );
    expect(await filesIn(join(fx.root, '.drive-staging'))).toEqual([]);
    // Once the live process has moved its file in, the drive is its published tree again.
    await writeFile(join(driveDir, 'Documents', 'five.txt'), 'five');
    const manifest = await fx.drive.list(fay);
    await expectPublishedAsOnDisk(fx.store, manifest.root_cid!, driveDir, manifest);
  });

  it('copies a file another user published, by <cid>/<name> or bare CID, and refuses directories', async () => {
    const alice = fx.user('alice@example.org');
    const bob = fx.user('bob@example.org');
    const published = await fx.addText(alice, 'recette.pdf', '%PDF-1.4 tarte aux pommes');
    const copy = await fx.drive.copyFrom(bob, published.entry.ipfs_link);
    expect(copy.entry).toMatchObject({
      path: 'Documents/recette.pdf',
      cid: published.entry.cid,
      sha256: published.entry.sha256,
      source: { kind: 'drive', ipfs_link: published.entry.ipfs_link, cid: published.entry.cid },
    });
    const bare = await fx.drive.copyFrom(bob, `/ipfs/${published.entry.cid}`);
    expect(bare.entry.path).toBe(`Documents/${published.entry.cid}.pdf`);
    const viaRoot = await fx.drive.copyFrom(bob, `${published.rootCid}/Documents/recette.pdf`);
    expect(viaRoot.entry.path).toBe('Documents/recette (1).pdf');
    await expect(fx.drive.copyFrom(bob, published.rootCid)).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    await expect(fx.drive.copyFrom(bob, 'nonsense')).rejects.toMatchObject({ code: 'INVALID_IPFS_PATH' });
    await expect(fx.drive.copyFrom(bob, `${published.rootCid}/Documents/none.pdf`)).rejects.toBeInstanceOf(
      NotFound,
    );
    const big = await fx.addText(alice, 'big.txt', 'z'.repeat(700 * 1024));
    await fx.addText(bob, 'own.txt', 'o'.repeat(400 * 1024));
    await expect(fx.drive.copyFrom(bob, big.entry.ipfs_link)).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
    });
    expect((await fx.drive.list(bob)).total_files).toBe(4);
  });
});
