/**
 * One journal record per reaction event id. Life cycle:
 *
 *   queued ──▶ sending ──▶ sent
 *     ▲           │ ├────▶ queued (the command reported a failure; retried after a back-off)
 *     │           │ └────▶ failed (still failing after the last attempt)
 *     │           └──────▶ interrupted (the process stopped, or the command was killed, while it ran)
 *   capped (over the payer's daily cap at queueing time)
 *
 * `failed`, `interrupted` and `capped` wait for the operator (`station payments retry`). An interrupted
 * payment is never re-sent on its own: the command may have reached the chain before the process died, and
 * paying twice is worse than paying late. The comment carries the reaction id, so the transfer can be looked
 * up before retrying.
 */
export const PAYMENT_STATUSES = ['queued', 'sending', 'sent', 'failed', 'interrupted', 'capped'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** States no worker will move on its own: only an operator's retry leaves them (`sent` never). */
export const TERMINAL: ReadonlySet<PaymentStatus> = new Set(['sent', 'failed', 'interrupted', 'capped']);

export function isPaymentStatus(value: string): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export interface HistoryEntry {
  at: string;
  status: PaymentStatus;
  note?: string;
}

export interface PaymentRecord {
  /** The reaction (kind 7) event id: the key of exactly-once. */
  id: string;
  status: PaymentStatus;
  payer: { hex: string; email: string };
  payee: { hex: string; wallet: string; source: 'local' | 'profile' };
  amount_zen: number;
  cents: number;
  amount_g1: string;
  comment: string;
  reacted_event: string;
  attempts: number;
  /** Epoch milliseconds before which a queued record is not tried again (back-off). */
  next_attempt_at: number;
  last_error: string | null;
  /** Tail of the command's output on the last attempt (transaction hash, error text). */
  last_output: string | null;
  /** The process running the command while `sending` (host name and pid), to tell a dead one from a slow one. */
  owner?: { host: string; pid: number } | null;
  created_at: string;
  updated_at: string;
  history: HistoryEntry[];
}

const HISTORY_LIMIT = 20;

/** A copy of `record` in `status`, with the change appended to its (bounded) history. */
export function transition(
  record: PaymentRecord,
  status: PaymentStatus,
  at: string,
  changes: Partial<Omit<PaymentRecord, 'id' | 'status' | 'history'>> = {},
  note?: string,
): PaymentRecord {
  const entry: HistoryEntry = note ? { at, status, note } : { at, status };
  return {
    ...record,
    ...changes,
    status,
    updated_at: at,
    history: [...record.history, entry].slice(-HISTORY_LIMIT),
  };
}

/** Structural check of a record read back from disk (another version or a hand edit may have written it). */
export function isPaymentRecord(value: unknown): value is PaymentRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.id === 'string' &&
    typeof r.status === 'string' &&
    isPaymentStatus(r.status) &&
    typeof r.cents === 'number' &&
    typeof r.comment === 'string' &&
    typeof r.attempts === 'number' &&
    typeof r.payer === 'object' &&
    typeof r.payee === 'object' &&
    Array.isArray(r.history)
  );
}
