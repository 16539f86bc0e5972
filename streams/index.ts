import type { Logger } from 'pino';
import { Subscription } from 'rxjs';
import type { AuthServices } from '../src/auth/services.js';
import { authStream } from './auth.stream.js';
import type { RelayClient } from './relay-client.js';

export interface StreamDeps {
  client: Pick<RelayClient, 'events$'>;
  auth: Pick<AuthServices, 'observed'>;
  logger?: Logger;
}

/** Subscribes every concern's stream to the relay client; unsubscribe the result to stop them all. */
export function startStreams(deps: StreamDeps): Subscription {
  const subscriptions = new Subscription();
  subscriptions.add(authStream(deps.client.events$, deps.auth.observed, deps.logger).subscribe());
  return subscriptions;
}
