import type { NostrEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import { catchError, EMPTY, from, map, mergeMap, type Observable } from 'rxjs';
import type { IngestResult, RelayObservedAuth } from '../src/auth/relay-observed.js';
import { NIP42_KIND } from '../src/nostr/nip42.js';
import { ofKinds } from './kinds.js';

/**
 * Kind 22242 → auth cache. Each event's signature, age and challenge are checked again here (never trusting
 * the relay) before the HTTP surface may rely on it.
 */
export function authStream(
  events$: Observable<NostrEvent>,
  observed: Pick<RelayObservedAuth, 'ingest'>,
  logger?: Logger,
): Observable<{ event: NostrEvent; result: IngestResult }> {
  return events$.pipe(
    ofKinds(NIP42_KIND),
    mergeMap((event) =>
      from(observed.ingest(event)).pipe(
        map((result) => {
          if (!result.accepted)
            logger?.debug({ pubkey: event.pubkey, code: result.code }, 'kind 22242 refused');
          return { event, result };
        }),
        catchError((error: unknown) => {
          logger?.warn({ err: error }, 'kind 22242 ingestion failed');
          return EMPTY;
        }),
      ),
    ),
  );
}
