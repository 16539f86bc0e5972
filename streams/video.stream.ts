import type { NostrEvent } from 'nostr-tools';
import type { Observable } from 'rxjs';
import type { UserLookup } from '../src/identity/user-store.js';
import type { StationView, ViewOutcome } from '../src/view/station-view.js';
import { eachEvent, type EachEventOptions } from './each-event.js';
import { ofKinds } from './kinds.js';

/** Kinds 21/22 → the videos (normal and short) each local user published, newest first. */
export function videoStream(
  events$: Observable<NostrEvent>,
  view: Pick<StationView, 'putVideo' | 'count'>,
  users: Pick<UserLookup, 'findByHex'>,
  options: Omit<EachEventOptions, 'name'> = {},
): Observable<ViewOutcome> {
  return events$.pipe(
    ofKinds(21, 22),
    eachEvent(
      async (event) =>
        (await users.findByHex(event.pubkey)) ? view.putVideo(event) : view.count('videos', 'ignored'),
      { ...options, name: 'videos' },
    ),
  );
}
