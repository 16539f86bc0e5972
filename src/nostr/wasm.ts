import { initNostrWasm, type Nostr } from 'nostr-wasm/gzipped';

/**
 * libsecp256k1 compiled to WebAssembly (nostr-wasm), loaded once per process for signing and verifying; null
 * when it failed to load, and callers fall back to nostr-tools' pure-JS code (same results, about 5× slower).
 */
export const nostrWasm: Nostr | null = await initNostrWasm().catch(() => null);
