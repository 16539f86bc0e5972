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
