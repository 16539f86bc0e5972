import type { NostrEvent } from 'nostr-tools';
import type { Observable } from 'rxjs';
import type { UserLookup } from '../src/identity/user-store.js';
import type { StationView, ViewOutcome } from '../src/view/station-view.js';
import { eachEvent, type EachEventOptions } from './each-event.js';
import { ofKinds } from './kinds.js';

/** Kind 10001 → the newest playlist of each local user (a replaceable list). */
export function playlistStream(
  events$: Observable<NostrEvent>,
  view: Pick<StationView, 'putPlaylist' | 'count'>,
  users: Pick<UserLookup, 'findByHex'>,
  options: Omit<EachEventOptions, 'name'> = {},
): Observable<ViewOutcome> {
  return events$.pipe(
    ofKinds(10001),
    eachEvent(
      async (event) =>
        (await users.findByHex(event.pubkey)) ? view.putPlaylist(event) : view.count('playlists', 'ignored'),
      { ...options, name: 'playlists' },
    ),
  );
}
