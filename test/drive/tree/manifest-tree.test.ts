import { describe, expect, it } from 'vitest';
import type { EntryRecord, PageRecord } from '../../../src/drive/db/records.js';
import { publishedManifestBytes, publishedText } from '../../../src/drive/published.js';
import { exporter } from 'ipfs-unixfs-exporter';
import { CID } from 'multiformats/cid';
import { buildManifest, editManifest, type ManifestView } from '../../../src/drive/tree/manifest-tree.js';
import { DEFAULT_LINKS } from '../drive-fixture.js';
import { memoryNodes } from './memory-nodes.js';

const OWNER = 'ab'.repeat(32);

function entry(seq: number): EntryRecord {
  const name = `file-${seq}.txt`;
  return {
    seq,
    path: `Documents/${name}`,
    name,
    category: 'Documents',
    file_type: 'document',
    mime_type: 'text/plain',
    size: 100 + seq,
    sha256: seq.toString(16).padStart(64, '0'),
    cid: 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH',
    dag_size: 106 + seq,
    ipfs_link: `QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH/${name}`,
    added_at: '2026-11-27T10:00:00.000',
    source: { kind: 'upload' },
  };
}

/** A drive held in memory, with the rows a commit would keep. */
class Drive {
  files = new Map<number, EntryRecord>();
  rows = new Map<string, PageRecord>();
  next = 0;
  view(): ManifestView {
    const sorted = () => [...this.files.values()].sort((a, b) => a.seq - b.seq);
    return {
      head: publishedText.head({ owner_hex_pubkey: OWNER }, DEFAULT_LINKS),
      line: publishedText.line,
      tail: publishedText.tail,
      entriesBetween: (from, to) => sorted().filter((e) => e.seq >= from && e.seq < to),
      seqRange: () => (this.files.size ? { min: sorted()[0]!.seq, max: sorted().at(-1)!.seq } : null),
      totals: { files: this.files.size, bytes: sorted().reduce((s, e) => s + e.size, 0) },
      row: (level, index) => this.rows.get(`${level}:${index}`),
    };
  }
  range() {
    return this.view().seqRange();
  }
  apply(edit: Awaited<ReturnType<typeof editManifest>>) {
    for (const { level, index, record } of edit.rows.values()) {
      if (record) this.rows.set(`${level}:${index}`, record);
      else this.rows.delete(`${level}:${index}`);
    }
    return edit.file;
  }
}

async function text(store: ReturnType<typeof memoryNodes>, cid: string): Promise<string> {
  const blockstore = {
    get: async function* (c: CID) {
      yield await store.get(c.toString());
    },
  };
  const file = await exporter(CID.parse(cid), blockstore as never);
  const parts: Uint8Array[] = [];
  if (!('content' in file)) throw new Error('not a file');
  for await (const part of file.content()) parts.push(part as Uint8Array);
  return Buffer.concat(parts).toString('utf8');
}

describe('the published manifest, stored as pages by seq', () => {
  it('reads back as the same JSON text, through any change, and depends on the files alone', async () => {
    const store = memoryNodes();
    const drive = new Drive();
    for (let round = 0; round < 120; round++) {
      const before = drive.range();
      const touched: number[] = [];
      if (round % 4 === 3 && drive.files.size > 0) {
        const victims = [...drive.files.keys()].filter((_, i) => i % 3 === round % 3).slice(0, 2);
        for (const seq of victims) drive.files.delete(seq);
        touched.push(...victims);
      } else {
        for (let n = 0; n < 1 + (round % 3); n++) {
          const added = entry(drive.next++);
          drive.files.set(added.seq, added);
          touched.push(added.seq);
        }
      }
      const file = drive.apply(await editManifest(store, drive.view(), touched, before));
      const files = [...drive.files.values()];
      const expectedText = Buffer.from(
        publishedManifestBytes({ owner_hex_pubkey: OWNER, files }, DEFAULT_LINKS),
      ).toString('utf8');
      expect(await text(store, file.cid)).toBe(expectedText);
      expect(JSON.parse(expectedText).total_files).toBe(files.length);
      // The same files with the same seqs built whole: the same CID.
      const fresh = Object.assign(new Drive(), { files: new Map(drive.files), next: drive.next });
      const whole = await buildManifest(memoryNodes(), fresh.view());
      expect(file.cid).toBe(whole.file.cid);
    }
  });

  it('gives back the previous CID when the file just added is removed', async () => {
    const store = memoryNodes();
    const drive = new Drive();
    for (let i = 0; i < 40; i++) drive.files.set(i, entry(i));
    drive.next = 40;
    const first = drive.apply(await buildManifest(store, drive.view()));
    const added = entry(drive.next++);
    drive.files.set(added.seq, added);
    drive.apply(await editManifest(store, drive.view(), [added.seq], { min: 0, max: 39 }));
    drive.files.delete(added.seq);
    const back = drive.apply(
      await editManifest(store, drive.view(), [added.seq], { min: 0, max: added.seq }),
    );
    expect(back.cid).toBe(first.cid);
  });

  it('writes a few KiB per change, whatever the drive holds', async () => {
    for (const count of [10, 2_000, 10_000]) {
      const store = memoryNodes();
      const drive = new Drive();
      for (let i = 0; i < count; i++) drive.files.set(i, entry(i));
      drive.next = count;
      drive.apply(await buildManifest(store, drive.view()));
      store.putBytes = 0;
      const added = entry(drive.next++);
      drive.files.set(added.seq, added);
      drive.apply(await editManifest(store, drive.view(), [added.seq], { min: 0, max: count - 1 }));
      expect(store.putBytes, `append at ${count}`).toBeLessThan(4096);
      store.putBytes = 0;
      const middle = Math.floor(count / 2);
      drive.files.delete(middle);
      drive.apply(await editManifest(store, drive.view(), [middle], { min: 0, max: added.seq }));
      expect(store.putBytes, `delete at ${count}`).toBeLessThan(6144);
    }
  });
});
