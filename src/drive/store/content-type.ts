import { contentType } from 'mime-types';

/** Leading bytes of the common formats a bare CID (no file name) may hold. */
const SIGNATURES: Array<[number[], string]> = [
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'application/pdf'],
  [[0x49, 0x44, 0x33], 'audio/mpeg'],
  [[0x4f, 0x67, 0x67, 0x53], 'audio/ogg'],
  [[0x66, 0x4c, 0x61, 0x43], 'audio/flac'],
  [[0x1a, 0x45, 0xdf, 0xa3], 'video/webm'],
];

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  return signature.every((byte, i) => bytes[at + i] === byte);
}

/** What a few leading bytes say about the content, like Kubo's gateway sniffing for name-less CIDs. */
export function sniffContentType(head: Uint8Array): string {
  for (const [signature, type] of SIGNATURES) if (startsWith(head, signature)) return type;
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  if (startsWith(head, [0x66, 0x74, 0x79, 0x70], 4)) return 'video/mp4';
  if (head.length > 0 && isProbablyText(head)) return 'text/plain; charset=utf-8';
  return 'application/octet-stream';
}

function isProbablyText(head: Uint8Array): boolean {
  for (const byte of head)
    if (byte === 0 || (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d)) return false;
  // Bytes at the very end may be a cut UTF-8 sequence; `fatal` would reject those, so only check validity up to it.
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)));
    return true;
  } catch {
    return false;
  }
}

/** Content type from a file name's extension, or null when the name says nothing. */
export function contentTypeForName(name: string): string | null {
  // mime-types reads a bare word as an extension (`pdf` → application/pdf): only a real extension counts.
  if (!/\.[^.]+$/.test(name)) return null;
  return contentType(name.toLowerCase()) || null;
}
