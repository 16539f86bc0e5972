import type { NostrEvent } from 'nostr-tools';
import { likeAmountZen } from './amount.js';

const HEX64 = /^[0-9a-f]{64}$/;

/** A kind-7 reaction that asks for a payment, before any wallet is looked up. */
export interface Like {
  reactionId: string;
  likerHex: string;
  authorHex: string;
  reactedEventId: string;
  amountZen: number;
}

export type IgnoredReason = 'NOT_A_REACTION' | 'NO_E_TAG' | 'NO_P_TAG' | 'SELF_LIKE' | 'NOT_A_LIKE';

export type ReactionVerdict = { like: Like } | { ignored: IgnoredReason };

/** NIP-25: the last `e` / `p` tag names the reacted event and its author (earlier ones are thread context). */
function lastTagValue(event: NostrEvent, name: string): string | undefined {
  for (let i = event.tags.length - 1; i >= 0; i--) {
    const tag = event.tags[i];
    if (tag?.[0] === name && typeof tag[1] === 'string') return tag[1].toLowerCase();
  }
  return undefined;
}

/**
 * Reads a reaction as docs/api-contract.md §9 does: `e` and `p` tags required, author ≠ liker, a like's
 * content.
 */
export function readReaction(event: NostrEvent): ReactionVerdict {
  if (event.kind !== 7) return { ignored: 'NOT_A_REACTION' };
  const reactedEventId = lastTagValue(event, 'e');
  if (!reactedEventId || !HEX64.test(reactedEventId)) return { ignored: 'NO_E_TAG' };
  const authorHex = lastTagValue(event, 'p');
  if (!authorHex || !HEX64.test(authorHex)) return { ignored: 'NO_P_TAG' };
  if (authorHex === event.pubkey) return { ignored: 'SELF_LIKE' };
  const amountZen = likeAmountZen(event.content);
  if (amountZen === null) return { ignored: 'NOT_A_LIKE' };
  return { like: { reactionId: event.id, likerHex: event.pubkey, authorHex, reactedEventId, amountZen } };
}

/** `UPLANET:<first 8 of UPLANETG1PUB>:<email of liker>:LIKE:<N>Z:<reaction id>` (docs/api-contract.md §9). */
export function likeComment(distributionWallet: string, likerEmail: string, like: Like): string {
  return `UPLANET:${distributionWallet.slice(0, 8)}:${likerEmail}:LIKE:${like.amountZen}Z:${like.reactionId}`;
}
