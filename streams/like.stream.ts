import type { NostrEvent } from 'nostr-tools';
import type { Observable } from 'rxjs';
import type { PaymentService, ReactionOutcome } from '../src/economy/payments/service.js';
import { eachEvent, type EachEventOptions } from './each-event.js';
import { ofKinds } from './kinds.js';

/** Reactions decided at once: journaling is a few small file operations, the transfer runs elsewhere. */
const LIKE_CONCURRENCY = 8;

/**
 * Kind 7 → 1 Ẑen (docs/api-contract.md §9). Each reaction is decided and journaled, then the payment executor
 * sends it on its own schedule: a slow or failing payment command never holds up the subscription.
 */
export function likeStream(
  events$: Observable<NostrEvent>,
  payments: Pick<PaymentService, 'onReaction'>,
  options: Omit<EachEventOptions, 'name'> = {},
): Observable<ReactionOutcome> {
  return events$.pipe(
    ofKinds(7),
    eachEvent((event) => payments.onReaction(event), {
      concurrency: LIKE_CONCURRENCY,
      ...options,
      name: 'likes',
    }),
  );
}
