import { randomBytes } from 'node:crypto';
import { matchFilters, verifyEvent, type Filter, type NostrEvent } from 'nostr-tools';
import { scriptedRelay, type ScriptedConnection } from './misbehaving-relays.js';

export interface BroadcastRelayOptions {
  /** Kind 22242 reaches only connections authenticated (NIP-42) as this key, as the embedded relay does. */
  station?: string;
  /** EOSE of every REQ waits for `releaseEose()` (a back-fill that takes its time). */
  holdEose?: boolean;
  /** false: the relay never answers a ping. */
  autoPong?: boolean;
}

const subscriptionsOf = (c: ScriptedConnection) =>
  (c.state.subscriptions ??= new Map<string, Filter[]>()) as Map<string, Filter[]>;

/**
 * A relay that stores nothing and hands each published event to the live subscriptions it matches: enough for
 * a kind-22242 login, which relays never store. It sends no AUTH challenge unless the test calls `challenge`.
 */
export async function broadcastRelay(options: BroadcastRelayOptions = {}) {
  const auths: NostrEvent[] = [];
  /** For each event published, how many subscriptions it was handed to. */
  const deliveries: number[] = [];
  let heldEose: (() => void)[] = [];
  let holding = options.holdEose ?? false;

  const broadcast = (event: NostrEvent): number => {
    let delivered = 0;
    for (const c of relay.connections) {
      if (event.kind === 22242 && options.station && c.state.pubkey !== options.station) continue;
      for (const [sub, filters] of subscriptionsOf(c)) {
        if (!matchFilters(filters, event)) continue;
        c.send('EVENT', sub, event);
        delivered++;
      }
    }
    return delivered;
  };

  const relay = await scriptedRelay(
    {
      onConnect: (c) => c.socket.on('close', () => subscriptionsOf(c).clear()),
      onReq: (c, sub, filters) => {
        subscriptionsOf(c).set(sub, filters);
        const eose = () => c.send('EOSE', sub);
        if (holding) heldEose.push(eose);
        else eose();
      },
      onMessage: (c, [type, payload]) => {
        if (type === 'CLOSE') subscriptionsOf(c).delete(payload as string);
        if (type === 'EVENT') {
          const event = payload as NostrEvent;
          c.send('OK', event.id, true, '');
          deliveries.push(broadcast(event));
        }
        if (type === 'AUTH') {
          const auth = payload as NostrEvent;
          auths.push(auth);
          const ok =
            verifyEvent(auth) && auth.tags.some((t) => t[0] === 'challenge' && t[1] === c.state.challenge);
          if (ok) c.state.pubkey = auth.pubkey;
          c.send('OK', auth.id, ok, ok ? '' : 'invalid: bad AUTH event');
        }
      },
    },
    { autoPong: options.autoPong },
  );

  return {
    ...relay,
    auths,
    deliveries,
    /** Live subscriptions over every connection, now. */
    subscriptions: () => relay.connections.reduce((n, c) => n + subscriptionsOf(c).size, 0),
    /** Sends an AUTH challenge on a connection, whenever the test decides (late, after the REQ). */
    challenge(c: ScriptedConnection) {
      c.state.challenge = randomBytes(16).toString('hex');
      c.send('AUTH', c.state.challenge);
    },
    /** Holds the EOSE of every later REQ until `releaseEose()`. */
    holdEose() {
      holding = true;
    },
    /** Sends the EOSEs held so far, and every later one at once. */
    releaseEose() {
      holding = false;
      for (const eose of heldEose) eose();
      heldEose = [];
    },
  };
}
