import type { EventTemplate, NostrEvent } from 'nostr-tools';

/** NIP-94 file metadata events. */
export const FILE_METADATA_KIND = 1063;

/** What the station knows of a stored file, as NIP-94 (and NIP-96's `nip94_event`, BUD-08's `nip94`) tell it. */
export interface FileMetadata {
  /** Where the bytes are served by hash (`<base>/<sha256>.<ext>`). */
  url: string;
  /** MIME type. */
  type: string;
  /** SHA-256 of the stored file. */
  sha256: string;
  /** SHA-256 of the file as received; the same as `sha256`, since the station never transforms a file. */
  originalSha256?: string;
  size: number;
  /** `<width>x<height>` of an image or a video, when measured. */
  dim?: string | null;
  blurhash?: string | null;
  /** UnixFS CID of the file in the content store. */
  cid?: string | null;
  /** The same bytes through an IPFS gateway (`…/ipfs/<wrapper>/<name>`). */
  fallback?: string | null;
  alt?: string | null;
}

/** The tags, in NIP-94's order of importance; optional facts only when known. */
export function fileMetadataTags(file: FileMetadata): string[][] {
  const tags: string[][] = [
    ['url', file.url],
    ['m', file.type],
    ['x', file.sha256],
    ['ox', file.originalSha256 ?? file.sha256],
    ['size', String(file.size)],
  ];
  if (file.dim) tags.push(['dim', file.dim]);
  if (file.blurhash) tags.push(['blurhash', file.blurhash]);
  if (file.alt) tags.push(['alt', file.alt]);
  if (file.fallback) tags.push(['fallback', file.fallback]);
  // Not a NIP-94 tag: lets IPFS-aware clients (UPlanet's) fetch the file from any node by its CID.
  if (file.cid) tags.push(['cid', file.cid]);
  return tags;
}

/** An unsigned kind-1063 event for the file; `content` is the caption. */
export function fileMetadataEvent(file: FileMetadata, createdAt: number, caption = ''): EventTemplate {
  return { kind: FILE_METADATA_KIND, created_at: createdAt, content: caption, tags: fileMetadataTags(file) };
}

/** The value of a single-valued tag of a kind-1063 event (`x`, `url`, …). */
export function fileMetadataValue(event: Pick<NostrEvent, 'tags'>, name: string): string | undefined {
  return event.tags.find((tag) => tag[0] === name)?.[1];
}
