import pLimit from 'p-limit';
import { Type, type Static } from 'typebox';
import { StationError, InvalidInput, DependencyError } from '../errors.js';
import { inAnswerLanguage } from '../http/request-language.js';
import { errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { balanceReport } from './balance.js';
import { BalanceBody } from './schemas.js';

/** Keys per request: a page of a wallet list. More is 400, never silently cut (UPassport kept the first 20). */
export const MAX_BATCH_KEYS = 50;
/** Indexer look-ups at once for one batch (cached answers cost nothing). */
const LOOKUPS_AT_ONCE = 8;

const Query = Type.Object({
  g1pubs: Type.String({
    maxLength: 8000,
    description: `Comma-separated Ğ1 keys, g1… addresses or local users' e-mails (at most ${MAX_BATCH_KEYS})`,
  }),
});

const Failed = Type.Object(
  { g1pub: Type.String(), detail: Type.String(), code: Type.String() },
  { description: 'This key could not be read: the same {detail, code} /check_balance would answer' },
);

const Batch = Type.Object({
  balances: Type.Record(Type.String(), Type.Union([BalanceBody, Failed]), {
    description: "Keyed by each key as given; each entry is /check_balance's answer, or an error entry",
  }),
  count: Type.Integer(),
  errors: Type.Integer(),
});

type Entry = Static<typeof BalanceBody> | Static<typeof Failed>;

/** The distinct non-empty keys, in the order given. */
function keysOf(list: string): string[] {
  return [...new Set(list.split(',').map((key) => key.trim()))].filter(Boolean);
}

/** `GET /check_balances?g1pubs=a,b,c`: several balances in one request, through the cached ledger. */
export async function balancesRoutes(app: StationApp): Promise<void> {
  app.get(
    '/check_balances',
    {
      schema: {
        summary: 'Ğ1 balances and Ẑen of several keys, addresses or local users at once',
        tags: ['economy'],
        querystring: Query,
        response: { 200: Batch, ...errorResponses(400, 502, 503, 504) },
      },
    },
    async (request) => {
      const keys = keysOf(request.query.g1pubs);
      if (keys.length === 0)
        throw new InvalidInput('MISSING_G1PUBS', {
          en: 'Give g1pubs: keys separated by commas.',
          fr: 'Donnez g1pubs : des clés séparées par des virgules.',
        });
      if (keys.length > MAX_BATCH_KEYS)
        throw new InvalidInput('TOO_MANY_KEYS', {
          en: `At most ${MAX_BATCH_KEYS} keys per request (${keys.length} given).`,
          fr: `Au plus ${MAX_BATCH_KEYS} clés par requête (${keys.length} données).`,
        });
      const limit = pLimit(LOOKUPS_AT_ONCE);
      const outcomes = await Promise.all(
        keys.map((key) =>
          limit(() => balanceReport(key, { users: app.users, ledger: app.ledger })).catch(
            (error: unknown) => {
              if (error instanceof StationError) return error;
              throw error;
            },
          ),
        ),
      );
      const failures = outcomes.filter((outcome) => outcome instanceof StationError);
      // An indexer that answered nothing is the request's failure, not a page of error entries.
      if (failures.length === keys.length && failures.every((error) => error instanceof DependencyError))
        throw failures[0]!;
      const balances: Record<string, Entry> = {};
      keys.forEach((key, index) => {
        const outcome = outcomes[index]!;
        balances[key] =
          outcome instanceof StationError
            ? { g1pub: key, detail: inAnswerLanguage(request, outcome.detail), code: outcome.code }
            : outcome;
      });
      return { balances, count: keys.length, errors: failures.length };
    },
  );
}
