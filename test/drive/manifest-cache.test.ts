import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/fs/atomic.js';
import { emptyManifest, readManifest, writeManifest } from '../../src/drive/manifest.js';
import { tempDir } from '../helpers/temp.js';

const owner = { email: 'a@example.org', hex: 'cd'.repeat(32) };
const at = '2026-11-23T10:00:00.000';

/** Manifests are parsed once per version of the file, not at every upload: the copy must never go stale. */
describe('the parsed-manifest cache', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir.cleanup());

  it('sees every rewrite, by this process or another, and hands out copies', async () => {
    const path = join(dir.path, 'manifest.json');
    const manifest = emptyManifest(owner, at);
    manifest.root_cid = 'QmFirst';
    await writeManifest(path, manifest);
    const first = await readManifest(path, owner, at);
    expect(first.root_cid).toBe('QmFirst');
    // A caller changing its copy changes nothing for the next reader.
    first.root_cid = 'QmChangedInMemory';
    first.files.push({ path: 'Images/x.jpg' } as never);
    expect(await readManifest(path, owner, at)).toMatchObject({ root_cid: 'QmFirst', files: [] });
    // Another process's atomic rewrite (a new inode), even of the same size.
    await writeFileAtomic(path, JSON.stringify({ ...manifest, root_cid: 'QmOther' }, null, 2));
    expect((await readManifest(path, owner, at)).root_cid).toBe('QmOther');
    // An edit in place by hand (same inode): its size or modification time tells.
    await writeFile(path, JSON.stringify({ ...manifest, root_cid: 'QmEditedByHand' }, null, 2));
    expect((await readManifest(path, owner, at)).root_cid).toBe('QmEditedByHand');
  });
});
