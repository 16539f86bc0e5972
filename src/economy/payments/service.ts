import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { NostrEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import { localDate, localTimestamp, type Clock } from '../../clock.js';
import type { Config } from '../../config/config.js';
import type { UserLookup } from '../../identity/user-store.js';
import { centsToG1Text, zenToCents } from './amount.js';
import { parseTemplate } from './command.js';
import { DailyCap } from './daily-cap.js';
import { PaymentExecutor, type ExecutorOptions } from './executor.js';
import { PaymentJournal } from './journal.js';
import type { PayeeResolver } from './payee.js';
import { likeComment, readReaction, type IgnoredReason } from './reaction.js';
import type { PaymentRecord } from './record.js';

export type ReactionOutcome =
  | 'queued'
  | 'capped'
  | 'duplicate'
  | 'stale'
  | 'liker-not-local'
  | 'unknown-payee'
  | 'same-wallet'
  | IgnoredReason;

export interface PaymentServiceDeps {
  config: Pick<Config, 'wallets' | 'paymentDailyCapZen' | 'likeMaxAgeSeconds'>;
  clock: Clock;
  users: Pick<UserLookup, 'findByHex' | 'dirFor'>;
  payees: Pick<PayeeResolver, 'resolve'>;
  journal: PaymentJournal;
  executor: PaymentExecutor;
  cap: DailyCap;
  logger?: Logger;
}

/**
 * Kind 7 → journal. Decides whether a reaction pays (docs/api-contract.md §9), reserves the payer's daily
 * allowance and journals the payment, then hands it to the executor and returns: the relay subscription never
 * waits for a transfer.
 */
export class PaymentService {
  readonly outcomes = new Map<ReactionOutcome, number>();

  constructor(private readonly deps: PaymentServiceDeps) {}

  get journal(): PaymentJournal {
    return this.deps.journal;
  }

  get executor(): PaymentExecutor {
    return this.deps.executor;
  }

  start(): void {
    this.deps.executor.start();
    void this.deps.cap.sweep(localDate(this.deps.clock.now())).catch(() => undefined);
  }

  stop(): Promise<void> {
    return this.deps.executor.stop();
  }

  async onReaction(event: NostrEvent): Promise<ReactionOutcome> {
    const outcome = await this.decide(event);
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
    return outcome;
  }

  private async decide(event: NostrEvent): Promise<ReactionOutcome> {
    const { users, journal, logger, clock } = this.deps;
    const verdict = readReaction(event);
    if ('ignored' in verdict) return verdict.ignored;
    const like = verdict.like;
    // Only a local liker has a wallet key here; anyone else's likes are theirs to pay.
    const liker = await users.findByHex(like.likerHex);
    if (!liker) return 'liker-not-local';
    const dunikey = join(users.dirFor(liker.email), '.secret.dunikey');
    if (
      !(await access(dunikey).then(
        () => true,
        () => false,
      ))
    )
      return 'liker-not-local';
    if (await journal.has(like.reactionId)) return 'duplicate';
    // A reaction signed long ago and republished here (or replayed from another relay) would otherwise be
    // paid again on every station that never saw it: only likes fresh when first seen pay.
    const ageSeconds = Math.floor(clock.now() / 1000) - event.created_at;
    if (ageSeconds > this.deps.config.likeMaxAgeSeconds) {
      logger?.info(
        { reaction: like.reactionId, liker: liker.email, age_s: ageSeconds },
        'like not paid: older than LIKE_MAX_AGE when first seen',
      );
      return 'stale';
    }

    const payee = await this.deps.payees.resolve(like.authorHex);
    if (!payee) {
      logger?.warn(
        { reaction: like.reactionId, author: like.authorHex, liker: liker.email },
        'like not paid: the author has no known Ğ1 wallet (not local, no g1pub in a kind-0 profile)',
      );
      return 'unknown-payee';
    }
    if (payee.wallet === liker.g1pub) return 'same-wallet';

    const now = clock.now();
    const capped =
      (await this.deps.cap.reserve(localDate(now), like.likerHex, like.reactionId, like.amountZen)) ===
      'over';
    const cents = zenToCents(like.amountZen);
    const at = localTimestamp(now);
    const record: PaymentRecord = {
      id: like.reactionId,
      status: capped ? 'capped' : 'queued',
      payer: { hex: like.likerHex, email: liker.email },
      payee,
      amount_zen: like.amountZen,
      cents,
      amount_g1: centsToG1Text(cents),
      comment: likeComment(this.deps.config.wallets.distribution, liker.email, like),
      reacted_event: like.reactedEventId,
      attempts: 0,
      next_attempt_at: 0,
      last_error: capped ? `daily cap of ${this.deps.config.paymentDailyCapZen} Ẑen reached` : null,
      last_output: null,
      created_at: at,
      updated_at: at,
      history: [{ at, status: capped ? 'capped' : 'queued' }],
    };
    if (!(await journal.create(record))) return 'duplicate';
    if (capped) {
      logger?.warn({ reaction: record.id, payer: liker.email }, 'like not paid: daily cap reached');
      return 'capped';
    }
    logger?.info(
      { reaction: record.id, payer: liker.email, to: payee.wallet, zen: like.amountZen },
      'like queued',
    );
    this.deps.executor.enqueue(record.id);
    return 'queued';
  }
}

export interface PaymentsSetup {
  config: Pick<
    Config,
    | 'tmpDir'
    | 'wallets'
    | 'paymentCommand'
    | 'paymentDailyCapZen'
    | 'paymentConcurrency'
    | 'paymentTimeoutSeconds'
    | 'paymentMaxAttempts'
    | 'likeMaxAgeSeconds'
  >;
  clock: Clock;
  users: Pick<UserLookup, 'findByHex' | 'dirFor'>;
  payees: Pick<PayeeResolver, 'resolve'>;
  logger?: Logger;
  /** Test and tuning knobs of the executor (back-off, scan interval, lock staleness). */
  tuning?: Partial<Pick<ExecutorOptions, 'retryBaseMs' | 'retryMaxMs' | 'scanIntervalMs'>> & {
    lockStaleMs?: number;
  };
}

/** The journal under `TMP_DIR/payments`, its daily cap and executor, wired from the configuration. */
export async function createPayments(setup: PaymentsSetup): Promise<PaymentService> {
  const { config, clock, users, logger, tuning } = setup;
  const root = join(config.tmpDir, 'payments');
  const journal = await new PaymentJournal(root, { lockStaleMs: tuning?.lockStaleMs, logger }).init();
  const executor = new PaymentExecutor({
    journal,
    clock,
    command: config.paymentCommand ? parseTemplate(config.paymentCommand) : null,
    dunikeyPath: (email) => join(users.dirFor(email), '.secret.dunikey'),
    concurrency: config.paymentConcurrency,
    timeoutMs: config.paymentTimeoutSeconds * 1000,
    maxAttempts: config.paymentMaxAttempts,
    logger,
    ...tuning,
  });
  if (!executor.enabled) logger?.warn('PAYMENT_COMMAND is not set: likes are journaled and stay queued');
  const cap = new DailyCap(join(root, 'cap'), config.paymentDailyCapZen);
  return new PaymentService({ config, clock, users, payees: setup.payees, journal, executor, cap, logger });
}
