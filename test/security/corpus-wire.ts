import { connect } from 'node:net';

/** One request as bytes on the wire: nothing is normalised, so malformed requests reach the server as sent. */
export interface WireRequest {
  /** Shown in failure messages. */
  label: string;
  method: string;
  /** Sent exactly as given (may hold bytes a URL parser would refuse). */
  target: string | Buffer;
  headers?: [string, string | Buffer][];
  body?: Buffer;
  /** Default: content-length of the body when there is one. */
  contentLength?: boolean;
  /** Close the writing side after this many body bytes (a client that disappears mid-body). */
  cutAfter?: number;
  /** Give up waiting for an answer after this long (default 20 s): null is returned. */
  timeoutMs?: number;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function decodeChunked(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

function parse(raw: Buffer): WireResponse | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!status) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(end + 4);
  const body = /chunked/i.test(headers['transfer-encoding'] ?? '') ? decodeChunked(rest) : rest;
  return { status, headers, body };
}

/**
 * Sends one HTTP/1.1 request on a fresh connection (`Connection: close`) and reads the answer to the end.
 * Null when the server closed the connection without a parsable answer.
 */
export function send(port: number, request: WireRequest): Promise<WireResponse | null> {
  const body = request.body ?? Buffer.alloc(0);
  const head: Buffer[] = [
    Buffer.from(`${request.method} `),
    Buffer.from(request.target),
    Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`),
  ];
  for (const [name, value] of request.headers ?? [])
    head.push(Buffer.from(`${name}: `), Buffer.from(value), Buffer.from('\r\n'));
  if (request.contentLength ?? request.body !== undefined)
    head.push(Buffer.from(`Content-Length: ${body.length}\r\n`));
  head.push(Buffer.from('\r\n'));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(request.timeoutMs ?? 20_000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(parse(Buffer.concat(chunks))));
    socket.write(Buffer.concat(head));
    if (request.cutAfter !== undefined) socket.end(body.subarray(0, request.cutAfter));
    else socket.write(body);
  });
}

/** Runs `tasks` with at most `concurrency` in flight; `between(n)` runs (awaited) after every `every` tasks. */
export async function runPool<T>(
  tasks: (() => Promise<T>)[],
  concurrency: number,
  between?: { every: number; run: (done: number) => Promise<void> },
): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < tasks.length; start += between?.every ?? tasks.length) {
    const slice = tasks.slice(start, start + (between?.every ?? tasks.length));
    let next = 0;
    const worker = async () => {
      while (next < slice.length) {
        const index = next++;
        results[start + index] = await slice[index]!();
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, slice.length) }, worker));
    await between?.run(start + slice.length);
  }
  return results;
}

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** A GET with `html` in its query asks for a page, and fails as one (src/http/error-page.ts). */
export const asksForPage = (method: string, target: string | Buffer) =>
  method === 'GET' && /[?&]html(?:[=&]|$)/.test(target.toString('latin1'));

/** An error page must show a code and keep the detail in `X-Reason`. */
function pageViolation({ status, headers, body }: WireResponse, allow5xx?: RegExp): string | null {
  const code = /id="error-code"[^>]*>([^<]*)</.exec(body.toString('utf8'))?.[1] ?? '';
  if (!UPPER_SNAKE.test(code)) return `${status} error page without an UPPER_SNAKE code`;
  if (!headers['x-reason']) return `${status} error page without X-Reason`;
  if (status >= 500 && !allow5xx?.test(code)) return `${status} ${code} (page)`;
  return null;
}

/**
 * What is wrong with an answer under the error contract ({detail, code}, or an error page when the request
 * asked for a page; no 5xx); null when it is fine.
 */
export function contractViolation(
  response: WireResponse | null,
  options: { method?: string; allow5xx?: RegExp; page?: boolean } = {},
): string | null {
  if (!response) return 'no answer (connection closed)';
  const { status } = response;
  if (status < 400) return null;
  if (options.method === 'HEAD') return status >= 500 ? `HEAD answered ${status}` : null;
  if (options.page && response.headers['content-type']?.startsWith('text/html'))
    return pageViolation(response, options.allow5xx);
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString('utf8'));
  } catch {
    return `${status} with a non-JSON body: ${response.body.toString('utf8').slice(0, 120)}`;
  }
  const { detail, code } = (parsed ?? {}) as { detail?: unknown; code?: unknown };
  if (typeof detail !== 'string' || typeof code !== 'string')
    return `${status} body is not {detail, code}: ${JSON.stringify(parsed).slice(0, 160)}`;
  if (!UPPER_SNAKE.test(code)) return `${status} code ${code} is not UPPER_SNAKE_CASE`;
  if (status >= 500 && !options.allow5xx?.test(code)) return `${status} ${code}: ${detail.slice(0, 160)}`;
  return null;
}
