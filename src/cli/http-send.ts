import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nip19 } from 'nostr-tools';
import { within } from '../fs/paths.js';
import { normaliseEmail } from '../identity/email.js';
import { readSecretKeyBytes } from '../identity/station-key.js';
import { UsageError, type RequestBody } from './http-body.js';

/**
 * `--as`: an `nsec1…` key, or the e-mail of a user of this station, whose key is read where the service keeps
 * it (`DATA_ROOT/nostr/<email>/.secret.nostr`, docs/api.md, "Identities").
 */
export async function secretKeyFor(as: string, dataRoot: string): Promise<Uint8Array> {
  if (as.startsWith('nsec1')) {
    try {
      const decoded = nip19.decode(as);
      if (decoded.type === 'nsec') return decoded.data;
    } catch {
      // reported below
    }
    throw new UsageError('--as: not a valid nsec1… key');
  }
  const email = normaliseEmail(as);
  const usersRoot = join(dataRoot, 'nostr');
  let dir: string | null = null;
  try {
    if (email) dir = within(usersRoot, email);
  } catch {
    dir = null;
  }
  if (!dir) throw new UsageError('--as: give the e-mail of a user of this station, or an nsec1… key');
  const secretKey = await readSecretKeyBytes(join(dir, '.secret.nostr'));
  if (!secretKey) throw new UsageError(`--as ${email}: no such user in ${usersRoot}`);
  return secretKey;
}

/**
 * Sends one request with Node's own client (a streamed body with a known Content-Length), resolving with the
 * answer as soon as it starts: a station may refuse an upload before its end, and that answer is the one to show.
 */
export function sendRequest(
  url: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  body: RequestBody | null,
  onSent: (bytes: number) => void = () => undefined,
): Promise<IncomingMessage> {
  const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers });
  const answer = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  if (!body) request.end();
  else {
    let sent = 0;
    const counted = async function* () {
      for await (const chunk of body.chunks()) {
        yield chunk;
        sent += chunk.length;
        onSent(sent);
      }
    };
    // A failed read or connection also fails `answer` (the request is destroyed with the error); an early
    // answer ends the upload, and the write errors that follow are not the story.
    pipeline(Readable.from(counted()), request).catch(() => undefined);
  }
  return answer;
}
