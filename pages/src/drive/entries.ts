// Which manifest entries the drive view shows; no DOM here (also run by the tests in Node).
import type { PublishedFile } from '../../../src/drive/listing-schema.js';

export const FOLDERS = ['Documents', 'Images', 'Music', 'Videos'] as const;
type Folder = (typeof FOLDERS)[number];

const isFolder = (value: unknown): value is Folder => FOLDERS.includes(value as Folder);
// eslint-disable-next-line no-control-regex
const PLAIN_NAME = /^(?!\.\.?$)[^/\\\u0000-\u001f]+$/;
const IPFS_LINK = /^[1-9A-HJ-NP-Za-km-z]{46,}\/[^/]+$|^b[a-z2-7]{40,}\/[^/]+$/;

/**
 * The files of a manifest that are what the station writes: a plain name in one of the four folders, a
 * size, a date and a `<cid>/<name>` link. An explorer reads whatever `manifest.json` sits next to
 * it, so nothing else is trusted; every value is then shown as text.
 */
export function safeFiles(manifest: unknown): PublishedFile[] {
  const files = (manifest as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return [];
  return files.filter((f): f is PublishedFile => {
    const file = f as Partial<PublishedFile> | null;
    return (
      typeof file === 'object' &&
      file !== null &&
      isFolder(file.category) &&
      typeof file.name === 'string' &&
      PLAIN_NAME.test(file.name) &&
      file.path === `${file.category}/${file.name}` &&
      Number.isSafeInteger(file.size) &&
      typeof file.added_at === 'string' &&
      typeof file.ipfs_link === 'string' &&
      IPFS_LINK.test(file.ipfs_link)
    );
  });
}
