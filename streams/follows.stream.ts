import type { NostrEvent } from 'nostr-tools';
import type { Observable } from 'rxjs';
import type { UserLookup } from '../src/identity/user-store.js';
import type { StationView, ViewOutcome } from '../src/view/station-view.js';
import { eachEvent, type EachEventOptions } from './each-event.js';
import { ofKinds } from './kinds.js';

/** Kind 3 → the newest follow list of each local user. */
export function followsStream(
  events$: Observable<NostrEvent>,
  view: Pick<StationView, 'putFollows' | 'count'>,
  users: Pick<UserLookup, 'findByHex'>,
  options: Omit<EachEventOptions, 'name'> = {},
): Observable<ViewOutcome> {
  return events$.pipe(
    ofKinds(3),
    eachEvent(
      async (event) =>
        (await users.findByHex(event.pubkey)) ? view.putFollows(event) : view.count('follows', 'ignored'),
      { ...options, name: 'follows' },
    ),
  );
}
