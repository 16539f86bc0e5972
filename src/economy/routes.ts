import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInput } from '../errors.js';
import { errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { pageContext, sendHtml, sharedViews, wantsHtml, type Views } from '../http/views.js';
import { twoDecimals } from './amounts.js';
import { balanceReport } from './balance.js';
import { economyLabels, PART_ICONS } from './labels.js';
import { staleFields, type LedgerReading } from './ledger.js';
import { pageOf, parsePaging, type Paging } from './paging.js';
import { sendPrepared } from './prepared-answer.js';
import { ReadoutCache, type Readout } from './readouts.js';
import { parseYearFilter, revenueReadout, type RevenueReport } from './revenue.js';
import {
  BalanceBody,
  BalanceQuery,
  NotModified,
  RevenueBody,
  RevenueQuery,
  SocietyBody,
  SocietyQuery,
} from './schemas.js';
import { societyReadout, type SocietyReport } from './society.js';

const TAGS = ['economy'];
const ERRORS = errorResponses(400, 404, 502, 503, 504);

function page(views: Views, request: FastifyRequest, reply: FastifyReply, name: string, data: object) {
  const context = pageContext(request);
  const html = views.render(name, {
    ...data,
    ...context,
    t: economyLabels(context.lang),
    icons: PART_ICONS,
    fmt: twoDecimals,
    day: (iso: string) => iso.slice(0, 10),
  });
  return sendHtml(reply, html);
}

/**
 * A read-out's JSON: the whole answer as prepared bytes (serialized and compressed once per ledger snapshot,
 * with an ETag), or one page of its list through the response schema (small, so made per request). A stale
 * reading goes through the schema too: its prepared bytes say nothing of staleness, which can change.
 */
function sendJson<R extends object, K extends keyof R & string>(
  request: FastifyRequest,
  reply: FastifyReply,
  readout: Readout<R>,
  list: K,
  paging: Paging | null,
  reading: LedgerReading<unknown>,
) {
  if (!paging && !reading.stale) return sendPrepared(request, reply, readout.answer());
  if (!paging) return { ...readout.report, ...staleFields(reading) };
  const page = pageOf(readout.report[list] as unknown[], readout.times, paging);
  return { ...readout.report, [list]: page.items, ...staleFields(reading), next_cursor: page.next_cursor };
}

/**
 * Read-only economy endpoints (docs/api-contract.md §7, §10): JSON by default, a page when `html` is present.
 */
export async function economyRoutes(app: StationApp): Promise<void> {
  const views = await sharedViews();
  const { wallets, salesMarker } = app.config;
  const revenue = new ReadoutCache<RevenueReport>();
  const society = new ReadoutCache<SocietyReport>();

  app.get(
    '/check_balance',
    {
      schema: {
        summary: 'Ğ1 balance of a key, address or local user, and its value in Ẑen',
        tags: TAGS,
        produces: ['application/json', 'text/html'],
        querystring: BalanceQuery,
        response: { 200: BalanceBody, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { g1pub } = request.query;
      const html = wantsHtml(request.query);
      if (!g1pub?.trim()) {
        if (html) return page(views, request, reply, 'economy/balance', { report: null, query: '' });
        throw new InvalidInput('MISSING_G1PUB', {
          en: 'Give g1pub: a Ğ1 public key or the e-mail of a local user.',
          fr: 'Donnez g1pub : une clé publique Ğ1 ou l’e-mail d’un utilisateur de cette station.',
        });
      }
      const report = await balanceReport(g1pub, { users: app.users, ledger: app.ledger });
      if (!html) return report;
      return page(views, request, reply, 'economy/balance', { report, query: g1pub });
    },
  );

  app.get(
    '/check_society',
    {
      schema: {
        summary: 'Social-capital history: shares paid into the society wallet, per member',
        tags: TAGS,
        produces: ['application/json', 'text/html'],
        querystring: SocietyQuery,
        response: { 200: SocietyBody, 304: NotModified, ...ERRORS },
      },
    },
    async (request, reply) => {
      const paging = parsePaging(request.query);
      const reading = await app.ledger.incoming(wallets.society);
      const incoming = reading.value;
      const readout = society.get(incoming, 'all', () => societyReadout(incoming, wallets, app.clock.now()));
      if (!wantsHtml(request.query)) return sendJson(request, reply, readout, 'transfers', paging, reading);
      // The station's gateway as this client reaches it (src/http/public-urls.ts).
      const gateway = app.publicUrls(request).gateway;
      const nodeUrl = (node: string) => `${gateway}/ipns/${encodeURIComponent(node)}`;
      return page(views, request, reply, 'economy/society', { report: readout.report, nodeUrl });
    },
  );

  app.get(
    '/check_revenue',
    {
      schema: {
        summary: 'Sales revenue of the station, all years or one year',
        tags: TAGS,
        produces: ['application/json', 'text/html'],
        querystring: RevenueQuery,
        response: { 200: RevenueBody, 304: NotModified, ...ERRORS },
      },
    },
    async (request, reply) => {
      const filterYear = parseYearFilter(request.query.year);
      const paging = parsePaging(request.query);
      const reading = await app.ledger.incoming(wallets.distribution);
      const incoming = reading.value;
      const settings = { distribution: wallets.distribution, reserve: wallets.reserve, marker: salesMarker };
      const readout = revenue.get(incoming, filterYear, () =>
        revenueReadout(incoming, { ...settings, filterYear }, app.clock.now()),
      );
      if (!wantsHtml(request.query))
        return sendJson(request, reply, readout, 'transactions', paging, reading);
      return page(views, request, reply, 'economy/revenue', { report: readout.report });
    },
  );
}
