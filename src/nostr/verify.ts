import { LRUCache } from 'lru-cache';
import { getEventHash, verifyEvent as verifyWithJs, type NostrEvent } from 'nostr-tools/pure';
import { setNostrWasm, verifyEvent as verifyWithWasm } from 'nostr-tools/wasm';
import { schnorrThread } from './schnorr-thread.js';
import { nostrWasm } from './wasm.js';

/** Which Schnorr implementation checks signatures: nostr-wasm (about 5× faster here) unless it failed to load. */
export const verifierBackend: 'wasm' | 'js' = nostrWasm ? 'wasm' : 'js';
if (nostrWasm) setNostrWasm(nostrWasm);

/** Counters, so tests and /health can show that stored events are not verified again. */
export const verificationStats = { checks: 0, cacheHits: 0, failures: 0 };

/**
 * Ids whose signature this process has checked, with the signature that passed. The embedded relay's write
 * path and the bot's subscription see the same events: each is verified once per process.
 */
const verified = new LRUCache<string, string>({ max: 200_000 });

/** Where events verified by an earlier run live (the embedded relay's store): id → the signature kept. */
type VerifiedSource = (id: string) => string | undefined;
const sources = new Set<VerifiedSource>();

/**
 * Adds a durable record of events this station verified when it wrote them, so that a restart does not verify
 * them again. Returns the function that removes it.
 */
export function registerVerifiedSource(source: VerifiedSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

function knownVerified(id: string, sig: string): boolean {
  if (verified.get(id) === sig) return true;
  for (const source of sources) if (source(id) === sig) return true;
  return false;
}

/**
 * Checks an event's id and signature. The id is always recomputed (a few microseconds), so an altered copy of
 * a verified event never passes through the cache; the Schnorr check (hundreds of microseconds) runs once per
 * id and signature, and never for an event the station's own store already holds with that signature. A fresh object is checked because nostr-tools marks checked objects with a symbol that
 * object spreads copy.
 */
export function verifySignature(event: NostrEvent): boolean {
  const signed = freshCopy(event);
  return cachedVerdict(signed) ?? recordVerdict(signed, checkHere(signed));
}

/**
 * `verifySignature` with the Schnorr check on the station's signature thread (schnorr-thread.ts), for the
 * request path: the event loop goes on serving while the check runs. Same cache, same counters.
 */
export async function verifySignatureOffThread(event: NostrEvent): Promise<boolean> {
  const signed = freshCopy(event);
  const cached = cachedVerdict(signed);
  if (cached !== undefined) return cached;
  const answer = verifierBackend === 'wasm' ? await schnorrThread().verify(signed) : null;
  return recordVerdict(signed, answer ?? checkHere(signed));
}

function freshCopy(event: NostrEvent): NostrEvent {
  const { id, pubkey, created_at, kind, tags, content, sig } = event;
  return { id, pubkey, created_at, kind, tags, content, sig };
}

/** The verdict without a Schnorr check, when this id and signature were verified before. */
function cachedVerdict(signed: NostrEvent): boolean | undefined {
  if (!knownVerified(signed.id, signed.sig)) return undefined;
  if (getEventHash(signed) !== signed.id) return false;
  verificationStats.cacheHits++;
  return true;
}

function checkHere(signed: NostrEvent): boolean {
  return verifierBackend === 'wasm' ? verifyWithWasm(signed) : verifyWithJs(signed);
}

function recordVerdict(signed: NostrEvent, ok: boolean): boolean {
  verificationStats.checks++;
  if (ok) verified.set(signed.id, signed.sig);
  else verificationStats.failures++;
  return ok;
}

/**
 * Records an event this process signed itself (sign.ts): its signature came out of libsecp256k1 here, so the
 * embedded relay and the bot need not check it again when it comes back to them.
 */
export function rememberSigned(event: Pick<NostrEvent, 'id' | 'sig'>): void {
  verified.set(event.id, event.sig);
}

/** Forgets every verified id (tests that count verifications start from a clean slate). */
export function forgetVerifiedEvents(): void {
  verified.clear();
}
