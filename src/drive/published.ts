import type { DriveLinks } from './links.js';
import type { PublishedFile, PublishedManifest } from './listing-schema.js';
import { EXPLORER_NAME } from './published-names.js';
import type { Manifest, ManifestEntry } from './manifest.js';

export type PublishedSource = Pick<Manifest, 'owner_hex_pubkey' | 'files'>;

/** A file as the public manifest lists it. */
export function publishedFile(f: ManifestEntry): PublishedFile {
  return {
    path: f.path,
    name: f.name,
    category: f.category,
    type: f.file_type,
    mime_type: f.mime_type,
    size: f.size,
    sha256: f.sha256,
    cid: f.cid,
    ipfs_link: f.ipfs_link,
    added_at: f.added_at,
  };
}

/**
 * The drive's public manifest: what the explorer needs and nothing private (no e-mail, no provenance, no
 * write time), files in the order they were added, so that its bytes, hence the root CID, follow from the
 * drive's list alone.
 */
export function publishedManifest(drive: PublishedSource, links: DriveLinks): PublishedManifest {
  return publishedWith(drive, drive.files.map(publishedFile), links);
}

/** The public manifest around files already as it lists them (publishedFile). */
export function publishedWith(
  drive: Pick<Manifest, 'owner_hex_pubkey'>,
  files: PublishedFile[],
  links: DriveLinks,
): PublishedManifest {
  return {
    ...header(drive, links),
    total_files: files.length,
    total_size: files.reduce((sum, f) => sum + f.size, 0),
    files,
  };
}

function header(drive: Pick<Manifest, 'owner_hex_pubkey'>, links: DriveLinks) {
  return {
    generator: 'uplanet-station',
    version: 1,
    owner_hex_pubkey: drive.owner_hex_pubkey,
    my_ipfs_gateway: links.gateway,
    api_url: links.api,
    explorer: EXPLORER_NAME,
  } as const;
}

const utf8 = new TextEncoder();

/**
 * The text of the public manifest is laid out so that adding files only appends to it: the header, one file
 * per line, then the totals last (JSON does not order keys). See published-file.ts.
 */
export const publishedText = {
  head: (drive: Pick<Manifest, 'owner_hex_pubkey'>, links: DriveLinks) =>
    `${JSON.stringify(header(drive, links)).slice(0, -1)},"files":[\n`,
  line: (f: ManifestEntry) => JSON.stringify(publishedFile(f)),
  tail: (files: number, bytes: number) => `],"total_files":${files},"total_size":${bytes}}\n`,
};

/** The whole text: header, files (a line each, separated by commas), totals. */
export function publishedManifestBytes(drive: PublishedSource, links: DriveLinks): Uint8Array {
  const lines = drive.files.map(publishedText.line);
  const bytes = drive.files.reduce((sum, f) => sum + f.size, 0);
  const body = lines.length > 0 ? `${lines.join(',\n')}\n` : '';
  return utf8.encode(publishedText.head(drive, links) + body + publishedText.tail(lines.length, bytes));
}
