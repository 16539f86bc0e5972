import { appendFile, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/fs/atomic.js';
import type { Manifest, ManifestEntry } from '../../src/drive/manifest.js';
import { checkpoint, commitChange, LOG_NAME, loadDrive, readManifest } from '../../src/drive/manifest-log.js';
import { tempDir } from '../helpers/temp.js';
import { ENTRY_TIME, imageEntry as entry, treeOf as tree } from './manifest-entries.js';

const owner = { email: 'a@example.org', hex: 'cd'.repeat(32) };
const at = ENTRY_TIME;

describe('the drive manifest: checkpoint plus log', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let path: string;
  beforeEach(async () => {
    dir = await tempDir('manifest-log-');
    path = join(dir.path, 'manifest.json');
  });
  afterEach(() => dir.cleanup());

  // Each change in a tenure of its own, as a writer that takes the lock for it and gives it back.
  let tenure = 1_000;
  const change = async (add: ManifestEntry[], root: string, remove: string[] = []) =>
    commitChange(path, await loadDrive(path, owner, at), { add, remove, tree: tree(root) }, ++tenure);

  it('appends a line per change and folds them into manifest.json at a checkpoint, in the order added', async () => {
    await change([entry('Images/b.jpg'), entry('Images/a.jpg')], 'QmOne');
    await change([entry('Images/c.jpg', 5)], 'QmTwo');
    // The first change wrote the owner down; the rest is only in the log.
    expect((await readdir(dir.path)).sort()).toEqual([LOG_NAME, 'manifest.json']);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({
      owner_hex_pubkey: owner.hex,
      files: [],
    });
    const lines = (await readFile(join(dir.path, LOG_NAME), 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([1, 2]);
    const listed = await readManifest(path, owner, at);
    expect(listed).toMatchObject({ root_cid: 'QmTwo', total_files: 3, total_size: 25 });
    expect(listed.files.map((f) => f.path)).toEqual(['Images/b.jpg', 'Images/a.jpg', 'Images/c.jpg']);

    expect(await checkpoint(path, owner, at)).toBe(true);
    expect(await readdir(dir.path)).toEqual(['manifest.json']);
    const onDisk = JSON.parse(await readFile(path, 'utf8')) as Manifest;
    expect(onDisk).toMatchObject({ root_cid: 'QmTwo', total_files: 3, log_seq: 2 });
    expect(onDisk.files.map((f) => f.path)).toEqual(['Images/b.jpg', 'Images/a.jpg', 'Images/c.jpg']);
    expect(await checkpoint(path, owner, at)).toBe(false);
  });

  it('trusts its state within one tenure of the lock, and reads the disk again in the next', async () => {
    await change([entry('Images/a.jpg')], 'QmOne');
    expect((await loadDrive(path, owner, at, 7)).state.manifest.root_cid).toBe('QmOne');
    // Another process's change while this one did not hold the lock: its line appended to the log.
    const other = { seq: 2, add: [entry('Images/b.jpg')], remove: [], tree: tree('QmTwo') };
    await appendFile(join(dir.path, LOG_NAME), `${JSON.stringify(other)}\n`);
    // Still the same tenure (impossible for another writer then): the cached state, without asking the disk.
    expect((await loadDrive(path, owner, at, 7)).state.manifest.root_cid).toBe('QmOne');
    const next = await loadDrive(path, owner, at, 8);
    expect(next.state.manifest.root_cid).toBe('QmTwo');
    expect(next.state.manifest.files.map((f) => f.path)).toEqual(['Images/a.jpg', 'Images/b.jpg']);
  });

  it('keeps the log open through one tenure, and opens it again in the next: another process may have folded it', async () => {
    const logPath = join(dir.path, LOG_NAME);
    await commitChange(
      path,
      await loadDrive(path, owner, at, 1),
      { add: [entry('Images/a.jpg')], tree: tree('QmOne') },
      1,
    );
    // Between two tenures, another process folds the log into manifest.json and removes it.
    const folded = { ...(await readManifest(path, owner, at)), log_seq: 1 };
    await writeFileAtomic(path, JSON.stringify(folded));
    await rm(logPath);
    const drive = await loadDrive(path, owner, at, 2);
    await commitChange(path, drive, { add: [entry('Images/b.jpg')], tree: tree('QmTwo') }, 2);
    await commitChange(path, drive, { add: [entry('Images/c.jpg')], tree: tree('QmThree') }, 2);
    // Written to the new log, not to the removed one the first tenure had open.
    const lines = (await readFile(logPath, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([2, 3]);
    expect((await readManifest(path, owner, at)).files.map((f) => f.path)).toEqual([
      'Images/a.jpg',
      'Images/b.jpg',
      'Images/c.jpg',
    ]);
  });

  it('keeps its indexes (names, bytes, content) through removals', async () => {
    await change([entry('Images/a.jpg', 10, 'same'), entry('Images/b.jpg', 20, 'same')], 'QmOne');
    await change([], 'QmTwo', ['Images/a.jpg']);
    const { state } = await loadDrive(path, owner, at);
    expect(state.usedBytes).toBe(20);
    expect(state.entry('Images/a.jpg')).toBeUndefined();
    expect(state.withSha256('same')?.path).toBe('Images/b.jpg');
    expect(state.manifest.files.map((f) => f.path)).toEqual(['Images/b.jpg']);
  });

  it('replays a log a crash left beside a checkpoint that already holds part of it, applying nothing twice', async () => {
    await change([entry('Images/a.jpg')], 'QmOne');
    const log = await readFile(join(dir.path, LOG_NAME));
    await checkpoint(path, owner, at);
    // The crash: the checkpoint was written, the log was not removed, and one more change came after it.
    await writeFile(join(dir.path, LOG_NAME), log);
    await change([entry('Images/b.jpg')], 'QmTwo');
    const fresh = await readManifest(join(dir.path, 'manifest.json'), owner, at);
    expect(fresh.files.map((f) => f.path)).toEqual(['Images/a.jpg', 'Images/b.jpg']);
    expect(fresh.root_cid).toBe('QmTwo');
  });

  it('ignores a line a killed writer did not finish, and cuts it before the next change', async () => {
    await change([entry('Images/a.jpg')], 'QmOne');
    await appendFile(join(dir.path, LOG_NAME), '{"seq":2,"add":[{"path":"Images/half');
    expect((await readManifest(path, owner, at)).files).toHaveLength(1);
    await change([entry('Images/b.jpg')], 'QmTwo');
    const lines = (await readFile(join(dir.path, LOG_NAME), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({ seq: 2, tree: { root_cid: 'QmTwo' } });
  });

  it('sees changes written by another process, to the log or by a new checkpoint, and hands out copies', async () => {
    await change([entry('Images/a.jpg')], 'QmOne');
    const first = await readManifest(path, owner, at);
    first.files.push(entry('Images/x.jpg'));
    first.root_cid = 'QmChangedInMemory';
    expect(await readManifest(path, owner, at)).toMatchObject({ root_cid: 'QmOne', total_files: 1 });
    // Another process appends the next change.
    const next = { seq: 2, add: [entry('Images/b.jpg')], tree: tree('QmOther') };
    await appendFile(join(dir.path, LOG_NAME), `${JSON.stringify(next)}\n`);
    expect(await readManifest(path, owner, at)).toMatchObject({ root_cid: 'QmOther', total_files: 2 });
    // Another process folds the log and removes it, then writes a change of its own to a new log.
    const folded = { ...(await readManifest(path, owner, at)), log_seq: 2, root_cid: 'QmFolded' };
    await writeFileAtomic(path, JSON.stringify(folded));
    await writeFile(join(dir.path, LOG_NAME), `${JSON.stringify({ seq: 3, tree: tree('QmThree') })}\n`);
    expect(await readManifest(path, owner, at)).toMatchObject({ root_cid: 'QmThree', total_files: 2 });
    // An edit by hand in place (same inode): its size or modification time tells.
    await writeFile(path, JSON.stringify({ ...folded, root_cid: 'QmEditedByHand', log_seq: 3 }));
    expect((await readManifest(path, owner, at)).root_cid).toBe('QmEditedByHand');
  });

  it('refuses a manifest.json that is not a manifest rather than starting an empty drive', async () => {
    await writeFile(path, '{"files": 3}');
    await expect(readManifest(path, owner, at)).rejects.toMatchObject({ code: 'MANIFEST_UNREADABLE' });
  });
});
