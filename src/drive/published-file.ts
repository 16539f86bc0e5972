import { LRUCache } from 'lru-cache';
import type { DriveLinks } from './links.js';
import type { ManifestEntry } from './manifest.js';
import { publishedManifestBytes, publishedText, type PublishedSource } from './published.js';
import { buildFile, rewriteTail, type FileLayout, type FileLeaf } from './store/unixfs-append.js';
import type { AddResult, ContentStore } from './store/types.js';

export type ManifestFileStore = Pick<ContentStore, 'putBlock' | 'add' | 'cat'>;

/** The public manifest of a root this process published, as stored: enough to append to it. */
interface Published {
  rootCid: string;
  head: string;
  files: number;
  bytes: number;
  layout: FileLayout;
}

/**
 * Per store (a test may run several), per drive: the last root published. Each holds its manifest's last
 * leaf (up to 256 KiB), hence the bound in bytes.
 */
const lastPublished = new WeakMap<ManifestFileStore, LRUCache<string, Published>>();

const utf8 = new TextEncoder();

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export interface ManifestFile extends Pick<AddResult, 'cid' | 'dagSize'> {
  /** Called with the root that links this file, so that the next publication of the drive can append to it. */
  published(rootCid: string): void;
}

/**
 * Stores the public manifest of a drive's next root (published.ts). When the previous root is the last one
 * this process published for the drive and the change only adds files, the new text is the old one with its
 * totals replaced by the new lines and new totals: only the file's last leaves and its root node are built
 * again (store/unixfs-append.ts), so the cost does not grow with the drive. Otherwise the whole text is built.
 */
export async function storePublishedManifest(
  store: ManifestFileStore,
  driveDir: string,
  input: {
    previousRoot: string | null;
    /** The drive's files after the change (listed only when the whole text is built). */
    drive: PublishedSource;
    /** How many files and bytes the drive holds after the change. */
    totals: { files: number; bytes: number };
    /** The files the change appends, or null when it does anything else (a removal). */
    appended: readonly ManifestEntry[] | null;
    links: DriveLinks;
  },
): Promise<ManifestFile> {
  let cache = lastPublished.get(store);
  if (!cache)
    lastPublished.set(
      store,
      (cache = new LRUCache({
        max: 256,
        maxSize: 32 * 1024 ** 2,
        sizeCalculation: (p) => p.layout.tail.length + 1,
      })),
    );
  const head = publishedText.head(input.drive, input.links);
  const { files, bytes } = input.totals;
  const previous = cache.get(driveDir);
  const io = {
    put: (block: Uint8Array) => store.putBlock(block),
    readLeaf: (leaf: FileLeaf) => collect(store.cat(leaf.cid)),
  };
  let layout: FileLayout | null = null;
  if (previous && input.appended && previous.rootCid === input.previousRoot && previous.head === head) {
    const oldTail = publishedText.tail(previous.files, previous.bytes);
    // The previous text ends "…last line\n" + tail, or, with no files, head + tail.
    const keep = previous.layout.size - utf8.encode(oldTail).length - (previous.files > 0 ? 1 : 0);
    const lines = input.appended.map(publishedText.line).join(',\n');
    const joint = previous.files > 0 && lines ? ',\n' : '';
    const suffix = `${joint}${lines}${files > 0 ? '\n' : ''}${publishedText.tail(files, bytes)}`;
    layout = await rewriteTail(previous.layout, keep, utf8.encode(suffix), io);
  }
  layout ??= await buildFile(publishedManifestBytes(input.drive, input.links), io);
  if (!layout) {
    // Past one level of leaves (tens of MB of manifest): the importer builds the deeper tree.
    const added = await store.add(once(publishedManifestBytes(input.drive, input.links)), { pin: false });
    return { cid: added.cid, dagSize: added.dagSize, published: () => cache.delete(driveDir) };
  }
  const stored = layout;
  return {
    cid: stored.cid,
    dagSize: stored.dagSize,
    published: (rootCid) => cache.set(driveDir, { rootCid, head, files, bytes, layout: stored }),
  };
}
