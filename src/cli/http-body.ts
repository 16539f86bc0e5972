import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { lookup } from 'mime-types';

/** A piece of a request body: bytes held in memory, or a byte range of a file read when it is needed. */
type Segment = { bytes: Buffer } | { path: string; size: number };

/**
 * A request body that can be read twice, identically: once to hash it for the NIP-98 `payload` tag, once to
 * send it. Files are streamed on each pass, never held whole in memory.
 */
export interface RequestBody {
  contentType: string;
  length: number;
  /** Whether a file is part of it (an upload, which shows progress). */
  hasFile: boolean;
  /** Set when the body is exactly these bytes, as a `curl --data` of them would send. */
  inline: Buffer | null;
  chunks(): AsyncGenerator<Buffer>;
}

export class UsageError extends Error {}

function bodyOf(segments: Segment[], contentType: string, inline: Buffer | null): RequestBody {
  return {
    contentType,
    length: segments.reduce((sum, s) => sum + ('bytes' in s ? s.bytes.length : s.size), 0),
    hasFile: segments.some((s) => 'path' in s),
    inline,
    async *chunks() {
      for (const segment of segments) {
        if ('bytes' in segment) yield segment.bytes;
        // Exactly the size hashed: a file that grows meanwhile is cut there, one that shrinks fails the payload.
        else if (segment.size > 0)
          yield* createReadStream(segment.path, { start: 0, end: segment.size - 1 }) as AsyncIterable<Buffer>;
      }
    },
  };
}

/** `--json '<text>'`: sent byte for byte as given (a curl `--data` of the same text hashes the same). */
export function jsonBody(text: string): RequestBody {
  try {
    JSON.parse(text);
  } catch {
    throw new UsageError('--json: not valid JSON');
  }
  const bytes = Buffer.from(text, 'utf8');
  return bodyOf([{ bytes }], 'application/json', bytes);
}

/** Quoted header parameter as browsers write it: quotes and line breaks percent-encoded. */
const quoted = (value: string) =>
  `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/** `-F name=value` and `-F name=@path` fields, in order, as one multipart/form-data body. */
export async function multipartBody(fields: string[]): Promise<RequestBody> {
  const boundary = `----station${randomBytes(12).toString('hex')}`;
  const segments: Segment[] = [];
  for (const field of fields) {
    const at = field.indexOf('=');
    if (at <= 0) throw new UsageError(`-F ${field}: expected name=value or name=@file`);
    const name = field.slice(0, at);
    const value = field.slice(at + 1);
    let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}`;
    if (value.startsWith('@')) {
      const path = value.slice(1);
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) throw new UsageError(`-F ${name}=@${path}: no such file`);
      const type = lookup(path) || 'application/octet-stream';
      head += `; filename=${quoted(basename(path))}\r\nContent-Type: ${type}\r\n\r\n`;
      segments.push({ bytes: Buffer.from(head) }, { path, size: info.size }, { bytes: Buffer.from('\r\n') });
    } else {
      segments.push({ bytes: Buffer.from(`${head}\r\n\r\n${value}\r\n`) });
    }
  }
  segments.push({ bytes: Buffer.from(`--${boundary}--\r\n`) });
  return bodyOf(segments, `multipart/form-data; boundary=${boundary}`, null);
}

/** SHA-256 hex of the whole body (the first pass), reporting the bytes read so far. */
export async function hashBody(body: RequestBody, progress?: (bytes: number) => void): Promise<string> {
  const hash = createHash('sha256');
  let done = 0;
  for await (const chunk of body.chunks()) {
    hash.update(chunk);
    done += chunk.length;
    progress?.(done);
  }
  return hash.digest('hex');
}
