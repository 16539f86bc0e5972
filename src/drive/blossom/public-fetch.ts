/**
 * Fetches a URL a client asked the station to mirror, without letting that client reach anything the station
 * can see but the public cannot. Each hop's host name is resolved once, every address is judged, and the socket
 * is pinned to those judged addresses, so a second resolution (DNS rebinding) cannot swap in a private one.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { StationError } from '../../errors.js';
import { bareHost, judge, pinnedLookup, type Address } from './address-policy.js';
import { guardedBody, tooLarge } from './guarded-body.js';
import { MirrorFetchFailedError, reasonOf } from './errors.js';
import { parseTarget, redirectTarget } from './mirror-url.js';
import { TransferWatch, type PaceLimits } from './transfer-watch.js';

export { isPublicAddress } from './address-policy.js';
export {
  MirrorFetchFailedError,
  MirrorTimeoutError,
  MirrorTooLargeError,
  MirrorTooSlowError,
  MirrorUrlRefusedError,
} from './errors.js';

export interface PublicFetchOptions {
  /** Abort with MirrorTooLargeError once more bytes than this arrive (or Content-Length says so up front). */
  maxBytes: number;
  /** Deadline for the response headers (all hops together), then the longest wait for each body chunk. */
  timeoutMs: number;
  /** The whole fetch's deadline and the body's least rate (MirrorTimeoutError, MirrorTooSlowError). */
  pace?: PaceLimits;
  /** Default 3; one more redirect than this is a MirrorFetchFailedError. */
  maxRedirects?: number;
  /** Origins (e.g. 'http://127.0.0.1:8123') trusted by the operator even though their address is private/loopback. Exact origin match (scheme+host+port). */
  trustedOrigins?: readonly string[];
  /** DNS lookup, injectable for tests; default node:dns lookup with {all:true}. */
  lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  /** Aborting rejects (or fails the body iteration) with the signal's reason and closes the socket. */
  signal?: AbortSignal;
}

export interface PublicResponse {
  /** Final URL after redirects. */
  url: string;
  /** The origin's Content-Type, parameters included. */
  contentType: string | null;
  contentLength: number | null;
  /**
   * Readable once. Enforces maxBytes and the idle timeout while iterating; breaking out of the loop (or calling
   * `return()` on its iterator) closes the socket, so a caller that will not read it must do that.
   */
  body: AsyncIterable<Uint8Array>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const lookupAll = (hostname: string): Promise<Address[]> => dnsLookup(hostname, { all: true });

export async function fetchPublic(url: string, options: PublicFetchOptions): Promise<PublicResponse> {
  options.signal?.throwIfAborted();
  let target = parseTarget(url);
  const trusted = new Set((options.trustedOrigins ?? []).map((origin) => new URL(origin).origin));
  const maxRedirects = options.maxRedirects ?? 3;
  // Lives until the body is read through (or given up): the deadline covers headers and body together.
  const watch = new TransferWatch(url, options.pace ?? {}, options.signal);
  const { signal } = watch;
  const headers = new AbortController();
  const onAbort = () => headers.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let answered = false;
  const deadline = setTimeout(
    () =>
      headers.abort(
        new MirrorFetchFailedError({
          en: `no answer from ${url} within ${options.timeoutMs} ms`,
          fr: `aucune réponse de ${url} en ${options.timeoutMs} ms`,
        }),
      ),
    options.timeoutMs,
  );
  try {
    for (let hop = 0; ; hop++) {
      const addresses = await untilAborted(
        judge(target, options.lookup ?? lookupAll, trusted),
        headers.signal,
      );
      const { req, res } = await send(target, addresses, headers.signal);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        req.destroy();
        if (hop >= maxRedirects)
          throw new MirrorFetchFailedError({
            en: `${url} redirects more than ${maxRedirects} times`,
            fr: `${url} redirige plus de ${maxRedirects} fois`,
          });
        target = parseTarget(redirectTarget(target, status, res.headers.location));
        continue;
      }
      if (status < 200 || status > 299) {
        req.destroy();
        throw new MirrorFetchFailedError({
          en: `${target.href} answered HTTP ${status}`,
          fr: `${target.href} a répondu HTTP ${status}`,
        });
      }
      const length = Number(res.headers['content-length'] ?? NaN);
      const contentLength = Number.isSafeInteger(length) && length >= 0 ? length : null;
      if (contentLength !== null && contentLength > options.maxBytes) {
        req.destroy();
        throw tooLarge(target, options.maxBytes);
      }
      const contentType = res.headers['content-type'] ?? null;
      const body = guardedBody(target, req, res, { ...options, watch });
      answered = true;
      return { url: target.href, contentType, contentLength, body };
    }
  } catch (error) {
    if (error instanceof StationError || (signal.aborted && error === signal.reason)) throw error;
    const reason = reasonOf(error);
    throw new MirrorFetchFailedError(
      {
        en: `could not fetch ${target.href}: ${reason}`,
        fr: `impossible de lire ${target.href} : ${reason}`,
      },
      error,
    );
  } finally {
    clearTimeout(deadline);
    signal.removeEventListener('abort', onAbort);
    if (!answered) watch.close();
  }
}

function send(target: URL, addresses: Address[], signal: AbortSignal) {
  return new Promise<{ req: ClientRequest; res: IncomingMessage }>((resolve, reject) => {
    const host = bareHost(target);
    const https = target.protocol === 'https:';
    const req = (https ? httpsRequest : httpRequest)({
      host,
      port: target.port === '' ? undefined : Number(target.port),
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      headers: { host: target.host, accept: '*/*', 'accept-encoding': 'identity' },
      // A pooled socket could be reused for a later hop resolved differently; one socket per request.
      agent: false,
      lookup: pinnedLookup(addresses),
      ...(https && isIP(host) === 0 ? { servername: host } : {}),
    });
    const onAbort = () => req.destroy(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    // Stays attached: a socket error after the headers must not become an uncaught exception.
    req.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    req.once('response', (res) => {
      signal.removeEventListener('abort', onAbort);
      res.on('error', () => {});
      resolve({ req, res });
    });
    req.end();
  });
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
