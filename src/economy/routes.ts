import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { BadRequestError } from '../http/errors.js';
import { errorResponses } from '../http/schemas.js';
import { pageContext, sendHtml, sharedViews, wantsHtml, type Views } from '../http/views.js';
import { twoDecimals } from './amounts.js';
import { balanceReport } from './balance.js';
import { economyLabels, PART_ICONS } from './labels.js';
import { parseYearFilter, revenueReport } from './revenue.js';
import { BalanceBody, BalanceQuery, PageQuery, RevenueBody, RevenueQuery, SocietyBody } from './schemas.js';
import { societyReport } from './society.js';

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

/** Read-only economy endpoints (CONTRACT §7, §10): JSON by default, a page when `html` is present. */
export async function economyRoutes(app: FastifyInstance): Promise<void> {
  const views = await sharedViews();
  const { wallets, salesMarker, ipfsGateway } = app.config;
  const gateway = ipfsGateway.replace(/\/+$/, '');

  app.get<{ Querystring: Static<typeof BalanceQuery> }>(
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
        throw new BadRequestError(
          'MISSING_G1PUB',
          'Give g1pub: a Ğ1 public key or the e-mail of a local user.',
        );
      }
      const report = await balanceReport(g1pub, { users: app.users, ledger: app.ledger });
      if (!html) return report;
      return page(views, request, reply, 'economy/balance', { report, query: g1pub });
    },
  );

  app.get<{ Querystring: Static<typeof PageQuery> }>(
    '/check_society',
    {
      schema: {
        summary: 'Social-capital history: shares paid into the society wallet, per member',
        tags: TAGS,
        produces: ['application/json', 'text/html'],
        querystring: PageQuery,
        response: { 200: SocietyBody, ...ERRORS },
      },
    },
    async (request, reply) => {
      const incoming = await app.ledger.incomingTransfers(wallets.society);
      const report = societyReport(incoming, wallets, app.clock.now());
      if (!wantsHtml(request.query)) return report;
      const nodeUrl = (node: string) => `${gateway}/ipns/${encodeURIComponent(node)}`;
      return page(views, request, reply, 'economy/society', { report, nodeUrl });
    },
  );

  app.get<{ Querystring: Static<typeof RevenueQuery> }>(
    '/check_revenue',
    {
      schema: {
        summary: 'Sales revenue of the station, all years or one year',
        tags: TAGS,
        produces: ['application/json', 'text/html'],
        querystring: RevenueQuery,
        response: { 200: RevenueBody, ...ERRORS },
      },
    },
    async (request, reply) => {
      const filterYear = parseYearFilter(request.query.year);
      const incoming = await app.ledger.incomingTransfers(wallets.distribution);
      const report = revenueReport(
        incoming,
        { distribution: wallets.distribution, reserve: wallets.reserve, marker: salesMarker, filterYear },
        app.clock.now(),
      );
      if (!wantsHtml(request.query)) return report;
      return page(views, request, reply, 'economy/revenue', { report });
    },
  );
}
