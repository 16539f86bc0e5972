import { varint } from 'multiformats';

/**
 * Protobuf framing (dag-pb and UnixFS) written straight into its buffer: nodes and leaves are framed at every
 * upload, and building their bytes from spread number arrays was most of their garbage. The varints are
 * multiformats' (unsigned LEB128, as protobuf writes lengths and sizes).
 */

/** How many bytes `value` (a non-negative integer up to 2^53) takes as a varint. */
export const varintLength = (value: number): number => varint.encodingLength(value);

/** Writes `value` as a varint at `at`; answers where the next byte goes. */
export function writeVarint(into: Uint8Array, at: number, value: number): number {
  varint.encodeTo(value, into, at);
  return at + varint.encodingLength(value);
}

/** A field of wire type 2: its tag, its length as a varint, then `body`'s bytes; at `at`, answers the end. */
export function writeBytesField(into: Uint8Array, at: number, tag: number, body: Uint8Array): number {
  into[at++] = tag;
  at = writeVarint(into, at, body.byteLength);
  into.set(body, at);
  return at + body.byteLength;
}

/** The length of such a field. */
export const bytesFieldLength = (bodyLength: number) => 1 + varintLength(bodyLength) + bodyLength;
