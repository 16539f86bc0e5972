import { blake2b } from '@noble/hashes/blake2.js';
import { base58 } from '@scure/base';

/** Duniter v2s (Ğ1) network prefix: SS58 addresses of this network start with "g1". */
export const G1_SS58_PREFIX = 4450;

const SS58_PRE = new TextEncoder().encode('SS58PRE');

function prefixBytes(prefix: number): Uint8Array {
  if (prefix < 64) return Uint8Array.of(prefix);
  // Two-byte form of the SS58 spec, for prefixes 64…16383.
  return Uint8Array.of(((prefix & 0b1111_1100) >> 2) | 0b0100_0000, (prefix >> 8) | ((prefix & 0b11) << 6));
}

function checksum(body: Uint8Array): Uint8Array {
  const input = new Uint8Array(SS58_PRE.length + body.length);
  input.set(SS58_PRE);
  input.set(body, SS58_PRE.length);
  return blake2b(input, { dkLen: 64 }).subarray(0, 2);
}

export function encodeSs58(publicKey: Uint8Array, prefix = G1_SS58_PREFIX): string {
  if (publicKey.length !== 32) throw new RangeError('SS58 needs a 32-byte public key');
  const head = prefixBytes(prefix);
  const body = new Uint8Array(head.length + 32);
  body.set(head);
  body.set(publicKey, head.length);
  const out = new Uint8Array(body.length + 2);
  out.set(body);
  out.set(checksum(body), body.length);
  return base58.encode(out);
}

/** Returns the 32-byte public key of a valid SS58 address of `prefix`, or null. */
export function decodeSs58(address: string, prefix = G1_SS58_PREFIX): Uint8Array | null {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    return null;
  }
  const head = prefixBytes(prefix);
  if (bytes.length !== head.length + 34) return null;
  if (!head.every((byte, i) => bytes[i] === byte)) return null;
  const body = bytes.subarray(0, head.length + 32);
  const sum = checksum(body);
  if (bytes[body.length] !== sum[0] || bytes[body.length + 1] !== sum[1]) return null;
  return body.slice(head.length);
}

/** Ğ1 v1 keys are base58 Ed25519 public keys (43 or 44 characters). */
export function decodeG1v1(pubkey: string): Uint8Array | null {
  if (!/^[1-9A-HJ-NP-Za-km-z]{40,45}$/.test(pubkey)) return null;
  try {
    const bytes = base58.decode(pubkey);
    return bytes.length === 32 ? bytes : null;
  } catch {
    return null;
  }
}

/** Accepts a v1 base58 key or a g1 SS58 address and returns the SS58 address, or null. */
export function toG1Address(key: string): string | null {
  if (decodeSs58(key)) return key;
  const v1 = decodeG1v1(key);
  return v1 ? encodeSs58(v1) : null;
}
