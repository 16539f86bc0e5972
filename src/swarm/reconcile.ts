import type { Filter } from 'nostr-tools';
import type { AbstractRelay } from 'nostr-tools/abstract-relay';
import { nip77 } from 'nostr-tools';

/** Ids only the sister has (`need`) and ids only we have (`have`); `unsupported` when it has no NIP-77. */
export type Reconciliation = { have: string[]; need: string[] } | 'unsupported';

interface CustomSubscription {
  oncustom?: (data: unknown[]) => void;
}

/**
 * One NIP-77 reconciliation with nostr-tools' NegentropySync, the station as the initiating side. NegentropySync
 * reports a finished sync and a NEG-ERR alike (an `onclose` without reason): its frame handler is wrapped to
 * tell them apart. A NOTICE in answer, or silence, also means the sister cannot sync this way.
 */
export function reconcile(
  relay: AbstractRelay,
  storage: nip77.NegentropyStorageVector,
  filter: Filter,
  timeoutMs: number,
): Promise<Reconciliation> {
  return new Promise((resolve) => {
    const have: string[] = [];
    const need: string[] = [];
    let settled = false;
    let refused = false;
    const previousNotice = relay.onnotice;
    const finish = (result: Reconciliation) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      relay.onnotice = previousNotice;
      resolve(result);
    };
    const sync = new nip77.NegentropySync(relay, storage, filter, {
      label: 'swarm',
      onhave: (id) => have.push(id),
      onneed: (id) => need.push(id),
      onclose: (reason) => finish(refused || reason ? 'unsupported' : { have, need }),
    });
    const subscription = (sync as unknown as { subscription: CustomSubscription }).subscription;
    const inner = subscription.oncustom;
    subscription.oncustom = (data) => {
      if (data[0] === 'NEG-ERR') refused = true;
      inner?.(data);
    };
    relay.onnotice = (message) => {
      previousNotice(message);
      if (/neg|unknown|unsupported|invalid/i.test(message)) finish('unsupported');
    };
    const timer = setTimeout(() => {
      try {
        // NEG-CLOSE is sent from a promise nostr-tools does not await: only on an open connection.
        if (relay.connected) sync.close();
      } catch {
        // the connection is gone
      }
      finish('unsupported');
    }, timeoutMs);
    if (relay.connected) sync.start().catch(() => finish('unsupported'));
    else finish('unsupported');
  });
}
