import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageLabels } from '../../pages/labels/index.js';
import { pageContext, sendHtml, sharedViews, wantsHtml } from './views.js';

type ErrorKind = 'invalid' | 'notFound' | 'unavailable' | 'internal';

function kindOf(status: number): ErrorKind {
  if (status === 404) return 'notFound';
  if (status >= 400 && status < 500) return 'invalid';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  return 'internal';
}

const isRead = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD';

/** A read-out asked for as a page (`html` in the query, as its links and forms send it) fails as a page. */
export function wantsErrorPage(request: FastifyRequest): boolean {
  const query = request.query as { html?: unknown } | null | undefined;
  return isRead(request) && typeof query === 'object' && query !== null && wantsHtml(query);
}

/** An unknown address typed or followed in a browser: its navigation asks for `text/html` first. */
export function wantsNotFoundPage(request: FastifyRequest): boolean {
  const firstType = (request.headers.accept ?? '').split(',')[0]?.trim() ?? '';
  return wantsErrorPage(request) || (isRead(request) && firstType.startsWith('text/html'));
}

/**
 * The failure as a page in the reader's language, with the same status and headers as the JSON answer would
 * have; `detail` and `code` go through the templates' escaping. The link back opens the page again without
 * what was asked (the read-out's empty form); an unknown address has none. Should the templates fail, the
 * JSON answer goes out instead.
 */
export async function sendErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: { detail: string; code: string },
): Promise<FastifyReply> {
  reply.status(status).header('cache-control', 'no-store');
  try {
    const views = await sharedViews();
    const context = pageContext(request);
    const t = pageLabels(context.lang).error;
    const kind = kindOf(status);
    const known = request.routeOptions.url !== undefined;
    const back = known ? `${context.path}?${new URLSearchParams({ html: '1', lang: context.lang })}` : null;
    const html = views.render('error', {
      ...context,
      t,
      title: t.titles[kind],
      explanation: t.explanations[kind],
      status,
      ...body,
      back,
    });
    return sendHtml(reply, html);
  } catch (error) {
    request.log.error({ err: error }, 'error page failed');
    return reply.type('application/json; charset=utf-8').send(body);
  }
}
