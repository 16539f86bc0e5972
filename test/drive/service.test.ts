import { appendFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect, once_ } from './helpers.js';
import { addRecursiveCid, driveFixture, filesIn, ROOT_ENTRIES, type DriveFixture } from './drive-fixture.js';
import { LOG_NAME } from '../../src/drive/manifest-log.js';
import { wrapFile } from '../../src/drive/root.js';
import { EmbeddedStore } from '../../src/drive/store/embedded.js';
import { tempDir } from '../helpers/temp.js';
import { InvalidInput, NotFound } from '../../src/errors.js';

describe('drive service', () => {
  let fx: DriveFixture;
  beforeEach(async () => {
    fx = await driveFixture({ quotaBytes: 1024 * 1024 });
  });
  afterEach(() => fx.close());

  it('files an upload by extension, hashes it, and publishes the same root CID as `ipfs add -r`', async () => {
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
    expect(last.rootCid).toBe(await addRecursiveCid(driveDir));
    // The four folders, then the explorer and the public manifest (links sorted by name, as Kubo does).
    expect((await fx.store.ls(last.rootCid)).map((e) => e.name)).toEqual(ROOT_ENTRIES);
    // The file is reachable under its name through its wrapper, and the wrapper and the root are pinned.
    expect((await collect(fx.store.cat(result.entry.ipfs_link))).toString()).toBe('hello world\n');
    const pins = await fx.store.pins();
    expect(pins).toContain(last.rootCid);
    expect(pins).not.toContain(result.rootCid);
    expect(pins).toContain(result.entry.ipfs_link.split('/')[0]);
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
    expect(manifest.root_cid).toBe(await addRecursiveCid(fx.drive.driveDir(carol)));
    // Group commits: uploads that waited for the drive together were published together, in fewer roots.
    const roots = new Set(results.map((r) => r.rootCid));
    expect(roots.size).toBeLessThan(20);
    // Each answer's root holds its file (the store keeps unpinned blocks), and of all those roots only the
    // current one is still pinned.
    for (const r of results)
      expect((await fx.store.stat(`${r.rootCid}/${r.entry.path}`)).cid).toBe(r.entry.cid);
    const pins = new Set(await fx.store.pins());
    expect([...roots].filter((root) => pins.has(root))).toEqual([manifest.root_cid]);
  });

  it('deletes (unknown 404, escaping 400) and a re-upload gives back the same root', async () => {
    // Dates are in the published manifest: the same files at the same dates give the same root.
    fx.clock.frozen = Date.UTC(2026, 0, 1);
    const dave = fx.user('dave@example.org');
    const before = await fx.addText(dave, 'keep.txt', 'keep');
    const added = await fx.addText(dave, 'photo.png', 'png bytes');
    const removed = await fx.drive.delete(dave, 'Images/photo.png');
    expect(removed.rootCid).toBe(before.rootCid);
    expect(await filesIn(join(fx.drive.driveDir(dave), 'Images'))).toEqual([]);
    expect(await fx.store.pins()).not.toContain(added.entry.ipfs_link.split('/')[0]);
    const again = await fx.addText(dave, 'photo.png', 'png bytes');
    expect(again.entry.path).toBe('Images/photo.png');
    expect(again.rootCid).toBe(added.rootCid);
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

  it('settles an upload interrupted between placing the file and writing the manifest', async () => {
    const fay = fx.user('fay@example.org');
    const first = await fx.addText(fay, 'one.txt', 'one');
    const driveDir = fx.drive.driveDir(fay);
    // What a crash right after the rename leaves: the file in its folder and the journal record.
    const entry = { ...first.entry, path: 'Documents/two.txt', name: 'two.txt' };
    await writeFile(join(driveDir, 'Documents', 'two.txt'), 'one');
    await mkdir(join(driveDir, '.journal'), { recursive: true });
    const record = {
      staged: join(fx.root, '.drive-staging', '.gone.part'),
      final: join(driveDir, 'Documents', 'two.txt'),
      entry,
    };
    await writeFile(join(driveDir, '.journal', 'r1.json'), JSON.stringify(record));
    // And a crash before the rename: only the staged file and its record.
    await mkdir(join(fx.root, '.drive-staging'), { recursive: true });
    await writeFile(join(fx.root, '.drive-staging', '.left.part'), 'half');
    const lost = {
      ...record,
      staged: join(fx.root, '.drive-staging', '.left.part'),
      final: join(driveDir, 'Documents', 'three.txt'),
      entry: { ...entry, path: 'Documents/three.txt' },
    };
    await writeFile(join(driveDir, '.journal', 'r2.json'), JSON.stringify(lost));

    // An earlier version's journal is found by the next station to start: a process of its own.
    const next = await fx.otherProcess.addStream(fay, 'four.txt', once_(Buffer.from('four')), {
      kind: 'cli',
    });
    const manifest = await fx.drive.list(fay);
    expect(manifest.files.map((f) => f.path)).toEqual([
      'Documents/one.txt',
      'Documents/two.txt',
      'Documents/four.txt',
    ]);
    expect(next.rootCid).toBe(await addRecursiveCid(driveDir));
    expect(await filesIn(join(driveDir, '.journal'))).toEqual([]);
    expect(await filesIn(join(fx.root, '.drive-staging'))).toEqual([]);
  });

  /** A batch's moving note left at the end of the drive's log, as a crash leaves it; the next upload settles it. */
  async function settledByNextUpload(user: ReturnType<DriveFixture['user']>, moving: unknown[]) {
    await appendFile(join(fx.drive.driveDir(user), LOG_NAME), `${JSON.stringify({ moving })}\n`);
    const next = await fx.addText(user, 'two.txt', 'two');
    return { next, paths: (await fx.drive.list(user)).files.map((f) => f.path) };
  }

  it('settles a batch killed after moving its files in and before logging its change', async () => {
    const gus = fx.user('gus@example.org');
    const first = await fx.addText(gus, 'one.txt', 'one');
    const driveDir = fx.drive.driveDir(gus);
    // The batch noted its moves in the log, moved one file in, and died before moving the other.
    await writeFile(join(driveDir, 'Documents', 'moved.txt'), 'one');
    await mkdir(join(fx.root, '.drive-staging'), { recursive: true });
    await writeFile(join(fx.root, '.drive-staging', '.waiting.part'), 'half');
    const moving = [
      {
        staged: join(fx.root, '.drive-staging', '.moved.part'),
        final: join(driveDir, 'Documents', 'moved.txt'),
      },
      {
        staged: join(fx.root, '.drive-staging', '.waiting.part'),
        final: join(driveDir, 'Documents', 'never.txt'),
      },
    ].map((record, i) => ({
      ...record,
      entry: {
        ...first.entry,
        path: `Documents/${['moved', 'never'][i]}.txt`,
        name: `${['moved', 'never'][i]}.txt`,
      },
    }));
    const { next, paths } = await settledByNextUpload(gus, moving);
    expect(paths).toEqual(['Documents/one.txt', 'Documents/moved.txt', 'Documents/two.txt']);
    expect(next.rootCid).toBe(await addRecursiveCid(driveDir));
    expect(await filesIn(join(fx.root, '.drive-staging'))).toEqual([]);
  });

  it('imports again a file a crash moved in before the store committed its blocks', async () => {
    const hal = fx.user('hal@example.org');
    const first = await fx.addText(hal, 'one.txt', 'one');
    const driveDir = fx.drive.driveDir(hal);
    const text = 'moved in, never committed';
    await writeFile(join(driveDir, 'Documents', 'lost.txt'), text);
    // The entry the batch noted, its CIDs made by another store: this one never received the blocks.
    const elsewhere = await tempDir('elsewhere-');
    const other = await EmbeddedStore.open(elsewhere.path);
    const added = await other.add(once_(Buffer.from(text)), { pin: false });
    const wrapper = await wrapFile(other, { name: 'lost.txt', cid: added.cid, dagSize: added.dagSize });
    await other.close();
    await elsewhere.cleanup();
    await expect(fx.store.stat(wrapper)).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
    const entry = {
      ...first.entry,
      path: 'Documents/lost.txt',
      name: 'lost.txt',
      size: text.length,
      cid: added.cid,
      dag_size: added.dagSize,
      ipfs_link: `${wrapper}/lost.txt`,
    };
    const moving = [
      { staged: join(fx.root, '.drive-staging', '.lost.part'), final: join(driveDir, entry.path), entry },
    ];
    const { next, paths } = await settledByNextUpload(hal, moving);
    expect(paths).toEqual(['Documents/one.txt', 'Documents/lost.txt', 'Documents/two.txt']);
    expect((await collect(fx.store.cat(entry.ipfs_link))).toString()).toBe(text);
    expect(await fx.store.pins()).toContain(wrapper);
    expect(next.rootCid).toBe(await addRecursiveCid(driveDir));
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
