import type { NostrEvent } from 'nostr-tools';
import type { Observable } from 'rxjs';
import type { StationView, ViewOutcome } from '../src/view/station-view.js';
import { eachEvent, type EachEventOptions } from './each-event.js';
import { ofKinds } from './kinds.js';

/** Kind 0 → the newest profile of every author (names for pages, Ğ1 wallets for the like payments). */
export function profileStream(
  events$: Observable<NostrEvent>,
  view: Pick<StationView, 'putProfile'>,
  options: Omit<EachEventOptions, 'name'> = {},
): Observable<ViewOutcome> {
  return events$.pipe(
    ofKinds(0),
    eachEvent((event) => view.putProfile(event), { ...options, name: 'profiles' }),
  );
}
