import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { CommandOutcome } from './command.js';
import { transition, type PaymentRecord } from './record.js';

export interface ExecutorStats {
  attempts: number;
  sent: number;
  retried: number;
  failed: number;
  interrupted: number;
}

export interface SettleOptions {
  clock: Clock;
  /** The local timestamp written into the record's history. */
  at: string;
  stats: ExecutorStats;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  logger?: Logger;
}

/**
 * What one run of the payment command makes of a `sending` record: sent, interrupted (killed mid-run: the
 * chain must be checked before anyone retries), failed for good, or queued again after an exponential back-off.
 */
export function settle(
  record: PaymentRecord,
  outcome: CommandOutcome,
  options: SettleOptions,
): PaymentRecord {
  const { logger, stats, at } = options;
  const base = { id: record.id, to: record.payee.wallet, amount_g1: record.amount_g1 };
  if (outcome.kind === 'sent') {
    stats.sent++;
    logger?.info({ ...base, payer: record.payer.email }, 'like paid');
    return transition(record, 'sent', at, { last_error: null, last_output: outcome.output });
  }
  const changes = { last_error: outcome.error, last_output: outcome.output };
  if (outcome.kind === 'unknown') {
    stats.interrupted++;
    logger?.error({ ...base, error: outcome.error }, 'payment command killed: check the chain');
    return transition(record, 'interrupted', at, changes, 'killed while running: verify before retrying');
  }
  if (record.attempts >= (options.maxAttempts ?? 5)) {
    stats.failed++;
    logger?.error({ ...base, error: outcome.error }, 'payment failed, attempts exhausted');
    return transition(record, 'failed', at, changes, outcome.error);
  }
  stats.retried++;
  const first = options.retryBaseMs ?? 30_000;
  const delay = Math.min(options.retryMaxMs ?? 3_600_000, first * 2 ** (record.attempts - 1));
  logger?.warn({ ...base, error: outcome.error, retryInMs: delay }, 'payment failed, will retry');
  const nextAttempt = options.clock.now() + delay;
  return transition(record, 'queued', at, { ...changes, next_attempt_at: nextAttempt }, outcome.error);
}
