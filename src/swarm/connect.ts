import type { EventTemplate, Filter, NostrEvent, VerifiedEvent } from 'nostr-tools';
import { AbstractRelay } from 'nostr-tools/abstract-relay';
import WebSocket from 'ws';

/**
 * A connection without signature checks: every event the swarm moves is published to a relay that verifies it
 * (the station's own relay for a sister's events; the sister's for ours), so checking it here too would double
 * the work. Reconnection is the sister loop's (src/swarm/sister.ts), not nostr-tools'.
 */
export async function openRelay(
  url: string,
  sign?: (template: EventTemplate) => Promise<VerifiedEvent>,
): Promise<AbstractRelay> {
  const relay = new AbstractRelay(url, {
    verifyEvent: () => true,
    websocketImplementation: WebSocket as unknown as typeof globalThis.WebSocket,
    enablePing: true,
    enableReconnect: false,
    idleTimeout: 0,
  });
  relay.onnotice = () => undefined;
  if (sign) relay.onauth = sign;
  await relay.connect({ timeout: 10_000 });
  return relay;
}

/**
 * The events of `filters` stored at `relay`, until its EOSE (or `timeoutMs` of waiting); nothing once the
 * connection is closed (nostr-tools would send the REQ from a promise nobody awaits, and its rejection would
 * be unhandled).
 */
export function fetchStored(
  relay: AbstractRelay,
  filters: Filter[],
  onevent: (event: NostrEvent) => void,
  timeoutMs = 30_000,
): Promise<void> {
  if (!relay.connected) return Promise.resolve();
  return new Promise((resolve) => {
    const subscription = relay.subscribe(filters, {
      onevent,
      oneose: () => {
        subscription.close();
        resolve();
      },
      onclose: () => resolve(),
      eoseTimeout: timeoutMs,
    });
  });
}

/**
 * Every stored event of `filter`, a page at a time: a relay answers at most its own limit per REQ (a sister
 * without NIP-77 and a backlog would otherwise give only its newest page, and the next sync starts after it).
 * Each next page asks `until` the oldest second seen; ids seen are skipped, and a page with nothing new ends.
 * The next page is asked only once `onpage` has finished with this one: a backlog is never held, or passed
 * on, whole.
 */
export async function fetchPaged(
  relay: AbstractRelay,
  filter: Filter,
  onpage: (events: NostrEvent[]) => Promise<unknown> | void,
  pageSize = 500,
): Promise<void> {
  const seen = new Set<string>();
  let until: number | undefined;
  for (;;) {
    const fresh: NostrEvent[] = [];
    let oldest = Number.POSITIVE_INFINITY;
    const page = { ...filter, limit: pageSize, ...(until !== undefined && { until }) };
    await fetchStored(relay, [page], (event) => {
      oldest = Math.min(oldest, event.created_at);
      if (seen.has(event.id)) return;
      seen.add(event.id);
      fresh.push(event);
    });
    if (fresh.length === 0) return;
    await onpage(fresh);
    if (!relay.connected) return;
    until = oldest;
  }
}
