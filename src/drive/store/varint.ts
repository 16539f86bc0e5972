/**
 * Protobuf varints (dag-pb and UnixFS framing), written straight into their buffers: nodes and leaves are
 * framed at every upload, and building their bytes from spread number arrays was most of their garbage.
 */

/** How many bytes `value` (a non-negative integer up to 2^53) takes as a varint. */
export function varintLength(value: number): number {
  let length = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    length += 1;
  }
  return length;
}

/** Writes `value` as a varint at `at`; answers where the next byte goes. */
export function writeVarint(into: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    into[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  into[at++] = value;
  return at;
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
