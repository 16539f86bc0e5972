import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DriveState } from '../../src/drive/drive-state.js';
import { emptyManifest, type ManifestEntry } from '../../src/drive/manifest.js';

function entry(name: string, size: number): ManifestEntry {
  return {
    path: `Documents/${name}`,
    name,
    category: 'Documents',
    file_type: 'document',
    mime_type: 'application/pdf',
    size,
    sha256: `${name}-sha`,
    cid: `${name}-cid`,
    dag_size: size + 11,
    ipfs_link: `${name}-wrapper/${name}`,
    added_at: '2026-11-26 03:00:00',
    source: { kind: 'cli' },
  };
}

const tree = { root_cid: null, folders: {}, folder_dag_sizes: {}, updated_at: '2026-11-26 03:00:00' };

describe('DriveState totals after a change', () => {
  it('agree with the list the change leaves, without listing it', () => {
    const state = new DriveState(emptyManifest({ email: 'a@example.org', hex: 'ab'.repeat(32) }, 'now'), 0);
    const names = Array.from({ length: 40 }, (_, i) => `f${i}.pdf`);
    for (let round = 0; round < 200; round++) {
      // Adds may repeat a path already there (a replayed change) or within the change; removals may name
      // files that are not there, or the same file twice.
      const add = Array.from({ length: randomInt(0, 4) }, () =>
        entry(names[randomInt(40)]!, randomInt(1, 1e6)),
      );
      const remove = Array.from({ length: randomInt(0, 3) }, () => `Documents/${names[randomInt(40)]}`);
      const change = { add, remove: remove.length > 0 ? remove : undefined };
      const files = state.filesAfter(change);
      expect(state.totalsAfter(change)).toEqual({
        files: files.length,
        bytes: files.reduce((sum, f) => sum + f.size, 0),
      });
      // Applied as a publication would apply it: the same path added twice in one change is added once.
      const unique = add.filter((f, i) => add.findIndex((g) => g.path === f.path) === i);
      state.apply({ add: unique, remove: change.remove, tree });
    }
  });
});
