import { systemClock } from '../../../src/clock.js';
import { nip98Template, nostrAuthorization } from '../../../src/nostr/nip98-sign.js';
import type { Signer } from './signer.js';

/** Absolute URL of a path on this station, as the server rebuilds it to check the `u` tag. */
export function stationUrl(path: string): string {
  return new URL(path, window.location.href).href;
}

/**
 * `Authorization: Nostr <base64 event>` for one request (NIP-98), built by the station's own signer module:
 * `u` and `method` bind it to the request, `payload` (SHA-256 hex of the body) to its content, a random
 * `nonce` keeps two identical requests in one second apart. The page's signer (extension or typed key) signs.
 */
export async function nip98Authorization(
  signer: Signer,
  url: string,
  method: string,
  payloadSha256?: string,
): Promise<string> {
  const template = nip98Template({ method, url, payloadSha256: payloadSha256 || undefined }, systemClock);
  return nostrAuthorization(await signer.sign(template));
}
