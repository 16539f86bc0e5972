import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { nostrAuthorization, signNip98 } from '../nostr/nip98-sign.js';
import { hashBody, jsonBody, multipartBody, UsageError, type RequestBody } from './http-body.js';
import { progressLine } from './http-progress.js';
import { secretKeyFor, sendRequest } from './http-send.js';
import type { CliCommand, CliContext } from './command.js';

const HELP = `usage:
  station http <METHOD> <path> [--as <email|nsec>] [-F field=value | -F file=@path ...] [--json '<json>']
               [--url <base>] [-H 'Name: value' ...] [--print-header] [--include]

Sends one request to the station, signed with NIP-98 (Authorization: Nostr …) as the --as key: the e-mail of
a user of this station (its key is read under DATA_ROOT, so run this as the service's user) or an nsec1… key.
Without --as the request is not signed. A body is --json (sent byte for byte) or -F fields (multipart, files
streamed); the signature's payload tag is the SHA-256 of the exact bytes sent.

  --url <base>      the station, default http://127.0.0.1:$PORT
  -H 'Name: value'  an extra request header
  --print-header    print only the Authorization header value, send nothing. Each header is single-use (the
                    station refuses a second use: AUTH_REPLAYED) and valid for 60 s. It binds --json's exact
                    bytes; with -F it binds no body (curl builds its own multipart body), e.g.
                    curl -H "Authorization: $(npm run -s station -- http GET /api/me --as me@example.org --print-header)" \\
                      http://127.0.0.1:54321/api/me
  --include, -i     also print the status line and headers, on stderr

The answer's body goes to stdout (JSON pretty-printed). Exit 0 on a 2xx answer, 1 on another answer or a
network error, 2 on a usage error.`;

const OPTIONS = {
  as: { type: 'string' },
  form: { type: 'string', short: 'F', multiple: true },
  json: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', short: 'H', multiple: true },
  'print-header': { type: 'boolean', default: false },
  include: { type: 'boolean', short: 'i', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The request URL: an absolute URL as given, or a path under the base (which may carry a proxy's prefix). */
function requestUrl(path: string, base: string): URL {
  try {
    if (/^https?:\/\//i.test(path)) return new URL(path);
    if (path.startsWith('/')) return new URL(base.replace(/\/+$/, '') + path);
  } catch {
    // reported below
  }
  throw new UsageError(`${path}: give a path starting with / or an http(s) URL`);
}

function extraHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`-H ${line}: expected 'Name: value'`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

async function printAnswer(response: IncomingMessage, include: boolean, out: CliContext['out']) {
  if (include) {
    const lines = [`HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}`];
    for (let i = 0; i < response.rawHeaders.length; i += 2)
      lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
    process.stderr.write(`${lines.join('\n')}\n\n`);
  }
  if (/\bjson\b/i.test(response.headers['content-type'] ?? '')) {
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      out(JSON.stringify(JSON.parse(text), null, 2));
    } catch {
      out(text);
    }
    return;
  }
  // Anything else (a downloaded file) goes out as raw bytes, streamed.
  for await (const chunk of response)
    if (!process.stdout.write(chunk as Buffer)) await once(process.stdout, 'drain');
}

async function run(args: string[], { config, out }: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  if (values.help) {
    out(HELP);
    return 0;
  }
  const [method, path, ...extra] = positionals;
  if (!method || !path || extra.length > 0 || !/^[A-Za-z]+$/.test(method))
    throw new UsageError('give a METHOD and a path');
  if (values.form && values.json !== undefined) throw new UsageError('give -F fields or --json, not both');
  if (values['print-header'] && !values.as) throw new UsageError('--print-header needs --as');
  const url = requestUrl(path, values.url ?? `http://127.0.0.1:${config.port}`);
  const body: RequestBody | null = values.form
    ? await multipartBody(values.form)
    : values.json !== undefined
      ? jsonBody(values.json)
      : null;
  const secretKey = values.as ? await secretKeyFor(values.as, config.dataRoot) : null;
  const headers: Record<string, string | number> = {
    accept: 'application/json, */*;q=0.5',
    'user-agent': 'station-cli',
    ...extraHeaders(values.header ?? []),
  };
  const upload = body?.hasFile ?? false;
  if (secretKey) {
    let payloadSha256: string | undefined;
    if (body && values['print-header']) payloadSha256 = body.inline ? await hashBody(body) : undefined;
    else if (body) {
      const hashing = upload ? progressLine('hashing', body.length) : null;
      payloadSha256 = await hashBody(body, (bytes) => hashing?.update(bytes));
      hashing?.done();
    }
    const event = signNip98({ method, url: url.href, payloadSha256 }, secretKey, systemClock);
    secretKey.fill(0);
    headers.authorization = nostrAuthorization(event);
    if (values['print-header']) {
      out(headers.authorization);
      return 0;
    }
  }
  if (body) Object.assign(headers, { 'content-type': body.contentType, 'content-length': body.length });
  const sending = upload && body ? progressLine('sending', body.length) : null;
  const response = await sendRequest(url, method.toUpperCase(), headers, body, (bytes) =>
    sending?.update(bytes),
  );
  sending?.done();
  await printAnswer(response, values.include, out);
  const status = response.statusCode ?? 0;
  return status >= 200 && status < 300 ? 0 : 1;
}

export const command: CliCommand = {
  help: HELP,
  async run(args, context) {
    try {
      return await run(args, context);
    } catch (error) {
      // parseArgs reports unknown or malformed options with a TypeError whose code names it.
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (error instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
        console.error(`station http: ${(error as Error).message}\n\n${HELP}`);
        return 2;
      }
      if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ECONNRESET') {
        console.error(`station http: ${(error as Error).message} (is the station running?)`);
        return 1;
      }
      throw error;
    }
  },
};
