import type { Logger } from 'pino';
import { Subscription } from 'rxjs';
import type { AuthServices } from '../src/auth/services.js';
import type { PaymentService } from '../src/economy/payments/service.js';
import type { UserLookup } from '../src/identity/user-store.js';
import type { StationView } from '../src/view/station-view.js';
import { authStream } from './auth.stream.js';
import type { StreamErrors } from './each-event.js';
import { followsStream } from './follows.stream.js';
import { geoNoteStream } from './geo-note.stream.js';
import { likeStream } from './like.stream.js';
import { playlistStream } from './playlist.stream.js';
import { profileStream } from './profile.stream.js';
import { scraperStream, type ScraperStreamDeps } from './scraper.stream.js';
import { videoStream } from './video.stream.js';
import type { RelayClient } from './relay-client.js';

export interface StreamDeps {
  client: Pick<RelayClient, 'events$'>;
  auth: Pick<AuthServices, 'observed'>;
  logger?: Logger;
  /** The station view (kinds 0, 1, 3, 21/22, 10001); with `users` for the local-only concerns. */
  view?: StationView;
  users?: Pick<UserLookup, 'findByHex'>;
  /** Kind 7 → 1 Ẑen. */
  payments?: Pick<PaymentService, 'onReaction'>;
  /** Receives the count of events whose handler threw, per stream. */
  errors?: StreamErrors;
  /** The daily scraper schedule (not a relay stream: a timer). */
  scraper?: ScraperStreamDeps;
}

/** Subscribes every concern's stream to the relay client; unsubscribe the result to stop them all. */
export function startStreams(deps: StreamDeps): Subscription {
  const subscriptions = new Subscription();
  subscriptions.add(authStream(deps.client.events$, deps.auth.observed, deps.logger).subscribe());
  const options = { logger: deps.logger, errors: deps.errors };
  const events$ = deps.client.events$;
  if (deps.view) {
    subscriptions.add(profileStream(events$, deps.view, options).subscribe());
    subscriptions.add(geoNoteStream(events$, deps.view, options).subscribe());
    if (deps.users) {
      subscriptions.add(followsStream(events$, deps.view, deps.users, options).subscribe());
      subscriptions.add(videoStream(events$, deps.view, deps.users, options).subscribe());
      subscriptions.add(playlistStream(events$, deps.view, deps.users, options).subscribe());
    }
  }
  if (deps.payments) subscriptions.add(likeStream(events$, deps.payments, options).subscribe());
  if (deps.scraper) subscriptions.add(scraperStream(deps.scraper).subscribe());
  return subscriptions;
}
