import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type Coding = 'br' | 'gzip';
export type Encoding = Coding | 'identity';
export type Compressor = (coding: Coding, body: Buffer) => Promise<Buffer>;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli quality 5 and gzip level 6: a 2 MB JSON answer shrinks about twentyfold in tens of milliseconds,
 * where the top qualities would take seconds for a few per cent more. Both run on libuv's thread pool, never
 * on the event loop.
 */
export const zlibCompressor: Compressor = (coding, body) =>
  coding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: 6 });

/**
 * One JSON answer serialized once, with its compressed variants made on first demand and kept: concurrent
 * first requests for an encoding share one compression, and a failed compression leaves that encoding
 * served uncompressed rather than retried on every request.
 */
export class PreparedAnswer {
  readonly body: Buffer;
  private readonly hash: string;
  private readonly variants = new Map<Coding, Promise<Buffer | null>>();

  constructor(
    json: string,
    private readonly compress: Compressor = zlibCompressor,
  ) {
    this.body = Buffer.from(json, 'utf8');
    this.hash = createHash('sha256').update(this.body).digest('base64url').slice(0, 27);
  }

  /** Strong validators differ per encoding: the compressed bytes are a different representation (RFC 9110 §8.8.3). */
  etag(encoding: Encoding): string {
    return encoding === 'identity' ? `"${this.hash}"` : `"${this.hash}-${encoding}"`;
  }

  /** The bytes for `encoding`, or null when that compression failed (send the body as is). */
  variant(coding: Coding): Promise<Buffer | null> {
    let pending = this.variants.get(coding);
    if (!pending) {
      pending = this.compress(coding, this.body).catch(() => null);
      this.variants.set(coding, pending);
    }
    return pending;
  }
}

/** The client's preferred coding among br and gzip by q-value (br on a tie), else identity. */
export function pickEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const item of header.toLowerCase().split(',')) {
    const [name = '', ...params] = item.split(';').map((s) => s.trim());
    const q = params.map((p) => /^q=([01](?:\.\d{0,3})?)$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gz = Math.max(weight('gzip'), weights.get('x-gzip') ?? 0);
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : 'identity';
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/` is ignored, `*` matches anything. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((item) => {
    const tag = item.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** Sends `answer` in the encoding the client accepts, or 304 when it already holds that representation. */
export async function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: PreparedAnswer,
): Promise<FastifyReply> {
  let encoding = pickEncoding(request.headers['accept-encoding']);
  let bytes = encoding === 'identity' ? answer.body : await answer.variant(encoding);
  if (bytes === null) {
    encoding = 'identity';
    bytes = answer.body;
  }
  const etag = answer.etag(encoding);
  // CORS may have put Origin in Vary already: add to it rather than replace it.
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding').header('etag', etag);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type('application/json; charset=utf-8').send(bytes);
}
