import type { NostrEvent } from 'nostr-tools';
import type { Observable } from 'rxjs';
import type { StationView, ViewOutcome } from '../src/view/station-view.js';
import { eachEvent, type EachEventOptions } from './each-event.js';
import { ofKinds } from './kinds.js';

/** Kind 1 → geo-tagged notes filed by UMAP cell, for the geo-message page; other notes pass by. */
export function geoNoteStream(
  events$: Observable<NostrEvent>,
  view: Pick<StationView, 'putNote'>,
  options: Omit<EachEventOptions, 'name'> = {},
): Observable<ViewOutcome> {
  return events$.pipe(
    ofKinds(1),
    eachEvent((event) => view.putNote(event), { ...options, name: 'geo' }),
  );
}
