import type { PaymentRecord } from '../../../src/economy/payments/record.js';

/** A journal record as the payment service writes it, for tests that start from a given state. */
export function sampleRecord(id: string, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id,
    status: 'queued',
    payer: { hex: 'a'.repeat(64), email: 'alice@example.org' },
    payee: {
      hex: 'b'.repeat(64),
      wallet: 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ',
      source: 'local',
    },
    amount_zen: 1,
    cents: 10,
    amount_g1: '0.1',
    comment: `UPLANET:g1LBF94v:alice@example.org:LIKE:1Z:${id}`,
    reacted_event: 'e'.repeat(64),
    attempts: 0,
    next_attempt_at: 0,
    last_error: null,
    last_output: null,
    created_at: '2026-11-22T10:00:00.000',
    updated_at: '2026-11-22T10:00:00.000',
    history: [{ at: '2026-11-22T10:00:00.000', status: 'queued' }],
    ...overrides,
  };
}

/** The n-th fake reaction id. */
export const id = (n: number) => n.toString(16).padStart(64, '0');
