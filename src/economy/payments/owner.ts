import { hostname } from 'node:os';
import type { PaymentRecord } from './record.js';

/** Payments whose command runs in this process now, whichever executor started it. */
export const SENDING = new Set<string>();

/**
 * A lock also goes stale when its holder is merely stalled (an overloaded machine): on the same host, a
 * payment is only declared orphaned when its process is really gone. Another host (a shared TMP_DIR over the
 * network) cannot be probed, so the stale lock decides there.
 */
export function ownerAlive(record: PaymentRecord): boolean {
  const owner = record.owner;
  if (!owner || owner.host !== hostname()) return false;
  // Our own pid: either we are sending it now, or a previous run had the same pid (pid 1 in a container).
  if (owner.pid === process.pid) return SENDING.has(record.id);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
