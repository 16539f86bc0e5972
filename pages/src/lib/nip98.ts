import { bytesToHex, randomBytes } from '@noble/hashes/utils.js';
import type { Signer } from './signer.js';

export const NIP98_KIND = 27235;

function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Absolute URL of a path on this station, as the server rebuilds it to check the `u` tag. */
export function stationUrl(path: string): string {
  return new URL(path, window.location.href).href;
}

/**
 * `Authorization: Nostr <base64 event>` for one request (NIP-98): `u` and `method` bind it to the request,
 * `payload` (SHA-256 hex of the body) to its content. A random `nonce` tag keeps two identical requests in
 * the same second from signing the same event, which the station would refuse as a replay.
 */
export async function nip98Authorization(
  signer: Signer,
  url: string,
  method: string,
  payloadSha256?: string,
): Promise<string> {
  const tags = [
    ['u', url],
    ['method', method.toUpperCase()],
    ['nonce', bytesToHex(randomBytes(8))],
  ];
  if (payloadSha256) tags.push(['payload', payloadSha256]);
  const event = await signer.sign({
    kind: NIP98_KIND,
    created_at: Math.floor(Date.now() / 1000),
    tags,
    content: '',
  });
  return `Nostr ${base64Utf8(JSON.stringify(event))}`;
}
