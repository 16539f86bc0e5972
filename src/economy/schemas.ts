import { Type } from 'typebox';

const Html = Type.Optional(
  Type.String({ maxLength: 16, description: 'Present (any value): answer with the HTML page' }),
);
const Lang = Type.Optional(Type.String({ maxLength: 16, description: 'Page language: fr or en' }));

export const BalanceQuery = Type.Object({
  g1pub: Type.Optional(
    Type.String({
      maxLength: 254,
      description: 'Ğ1 v1 base58 key, g1… SS58 address, or the e-mail of a local user',
    }),
  ),
  html: Html,
  lang: Lang,
});

/** Only in an answer the indexer could not refresh: a current answer has neither field. */
const Staleness = {
  stale: Type.Optional(
    Type.Literal(true, {
      description:
        'Present only when the Ğ1 indexer could not give a current answer (it failed, or is not asked for now): this is the last one it gave',
    }),
  ),
  cached_at: Type.Optional(
    Type.String({ description: 'With stale: when the indexer gave this answer (local date-time)' }),
  ),
};

export const BalanceBody = Type.Object({
  g1pub: Type.String(),
  address: Type.String({ description: 'SS58 address (prefix 4450) queried on the indexer' }),
  balance: Type.String({ description: 'e.g. "12.34 Ğ1"' }),
  balance_g1: Type.Number(),
  zen: Type.Number({ description: '(Ğ1 − 1) × 10, never below 0' }),
  ...Staleness,
});

/** Paging of the transfer list; the digits are checked as text (as a number, ajv would take 1e309). */
const Paging = {
  limit: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}$',
      description: 'Page the list: at most this many items (1 to 1000; 100 with a cursor alone)',
    }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 64, description: 'next_cursor of the previous page, to read the next one' }),
  ),
};

export const SocietyQuery = Type.Object({ html: Html, lang: Lang, ...Paging });

const PartType = Type.Union([
  Type.Literal('constellation'),
  Type.Literal('satellite'),
  Type.Literal('parts'),
  Type.Literal('other'),
]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
/** Last, and only in paged answers, so the unpaged answer keeps its fields and their order. */
const NextCursor = Type.Optional(
  Type.Union([Type.String(), Type.Null()], {
    description: 'Paged answers only: the cursor of the next page, null on the last one',
  }),
);

export const SocietyBody = Type.Object({
  g1pub: Type.String(),
  total_outgoing_g1: Type.Number(),
  total_outgoing_zen: Type.Number(),
  total_transfers: Type.Integer(),
  members: Type.Array(
    Type.Object({
      email: Type.String(),
      total_g1: Type.Number(),
      total_zen: Type.Number(),
      shares: Type.Integer(),
      latest_date: Type.String(),
      latest_type: PartType,
      latest_amount_g1: Type.Number(),
      membership_end: NullableString,
      ipfs_node: NullableString,
    }),
  ),
  transfers: Type.Array(
    Type.Object({
      date: Type.String(),
      recipient: NullableString,
      amount_g1: Type.Number(),
      amount_zen: Type.Number(),
      part_type: PartType,
      ipfs_node: NullableString,
      comment: Type.String(),
    }),
  ),
  timestamp: Type.String({ description: 'When this answer was computed from the ledger snapshot it shows' }),
  ...Staleness,
  next_cursor: NextCursor,
});

export const RevenueQuery = Type.Object({
  year: Type.Optional(Type.String({ maxLength: 64, description: 'Four-digit year or "all" (default)' })),
  html: Html,
  lang: Lang,
  ...Paging,
});

const Totals = {
  total_revenue_g1: Type.Number(),
  total_revenue_zen: Type.Number(),
  total_transactions: Type.Integer(),
};

export const RevenueBody = Type.Object({
  g1pub: Type.String(),
  filter_year: Type.String(),
  ...Totals,
  yearly_summary: Type.Array(Type.Object({ year: Type.String(), ...Totals })),
  transactions: Type.Array(
    Type.Object({
      date: Type.String(),
      year: Type.String(),
      customer_email: NullableString,
      amount_g1: Type.Number(),
      amount_zen: Type.Number(),
      transaction_type: Type.String(),
      comment: Type.String(),
    }),
  ),
  timestamp: Type.String({ description: 'When this answer was computed from the ledger snapshot it shows' }),
  ...Staleness,
  next_cursor: NextCursor,
});

/** A full read-out carries an ETag: a client that sends it back in If-None-Match gets this, without a body. */
export const NotModified = Type.Null({
  description: 'Not modified: the If-None-Match ETag is still current',
});
