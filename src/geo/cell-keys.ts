import { sha256 } from '@noble/hashes/sha2.js';
import { LRUCache } from 'lru-cache';
import { getPublicKey } from 'nostr-tools';
import pLimit from 'p-limit';
import { deriveSeed } from '../identity/keys.js';

/** Keys are derived two at a time: the rest of libuv's four threads stay free for file system work. */
const DERIVATIONS_AT_ONCE = 2;
/** 64-hex keys, ~150 bytes an entry: a city's worth of neighbourhoods for a few MB. */
const CACHED_KEYS = 20_000;

/**
 * The NOSTR public keys of geographic cells, as the station's `keygen -t nostr <salt> <pepper>` makes them
 * (what Astroport's `Umap_geonostr.sh` publishes under): seed = scrypt(pepper, salt), secret = SHA-256(seed).
 * A key costs ~10 ms of scrypt (8 MiB), so it runs natively off the main thread, a few at a time, and the
 * answer, which never changes for a network, is remembered.
 */
export class CellKeys {
  private readonly cache = new LRUCache<string, Promise<string>>({ max: CACHED_KEYS });
  private readonly limit = pLimit(DERIVATIONS_AT_ONCE);

  /** Hex public key for keygen's (salt, pepper). */
  hexFor(salt: string, pepper: string): Promise<string> {
    const id = `${salt}\u0000${pepper}`;
    let pending = this.cache.get(id);
    if (!pending) {
      pending = this.limit(async () => {
        const seed = await deriveSeed(salt, pepper);
        return getPublicKey(sha256(seed));
      });
      pending.catch(() => this.cache.delete(id));
      this.cache.set(id, pending);
    }
    return pending;
  }
}
