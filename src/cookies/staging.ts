import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { BadRequestError, PayloadTooLargeError } from '../http/errors.js';
import { COOKIE_SNIFF_BYTES, looksLikeNetscapeCookies } from './netscape.js';

/** No single-domain cookie export comes near this; a larger file that looks like cookies is refused early. */
export const COOKIE_MAX_BYTES = 8 * 1024 * 1024;

/** An uploaded file on disk (mode 600, hidden name), structurally a drive `StagedFile` plus its metadata. */
export interface StagedUpload {
  path: string;
  size: number;
  sha256: string;
  /** The first bytes (up to COOKIE_SNIFF_BYTES), for the cookie check. */
  head: Buffer;
  fileName: string;
  mimeType: string;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  file: StagedUpload | null;
}

/**
 * Receives a multipart form before its sender is authenticated (a NIP-98 `payload` tag covers the whole
 * body). The file goes to a private staging folder: created 600, since it may hold someone's cookies.
 */
export class UploadStaging {
  constructor(readonly dir: string) {}

  async receive(request: FastifyRequest): Promise<ReceivedForm> {
    const fields: Record<string, string> = {};
    let file: StagedUpload | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
        } else if (part.fieldname !== 'file' || file) {
          part.file.resume();
          throw new BadRequestError('UNEXPECTED_FILE', 'Send exactly one file, in the form field "file".');
        } else {
          file = await this.stage(part.file, part.filename, part.mimetype);
          // The multipart size limit ends the stream early rather than failing it.
          if (part.file.truncated) {
            throw new PayloadTooLargeError('FILE_TOO_LARGE', 'The file is larger than this station accepts.');
          }
        }
      }
    } catch (error) {
      if (file) await this.discard(file);
      throw error;
    }
    return { fields, file };
  }

  async discard(file: Pick<StagedUpload, 'path'>): Promise<void> {
    await rm(file.path, { force: true });
  }

  /** Removes what interrupted requests left behind (a crash between staging and the `finally`). */
  async sweep(olderThanMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > olderThanMs) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  private async stage(
    source: AsyncIterable<Buffer>,
    fileName: string,
    mimeType: string,
  ): Promise<StagedUpload> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const path = join(this.dir, `.${randomBytes(12).toString('hex')}.upload`);
    const handle = await open(path, 'wx', 0o600);
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    let cookieLike: boolean | null = null;
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (headLength < COOKIE_SNIFF_BYTES) {
          const part = Buffer.from(chunk.subarray(0, COOKIE_SNIFF_BYTES - headLength));
          head.push(part);
          headLength += part.length;
        }
        if (size > COOKIE_MAX_BYTES) {
          cookieLike ??= looksLikeNetscapeCookies(Buffer.concat(head));
          if (cookieLike) {
            throw new PayloadTooLargeError(
              'COOKIE_FILE_TOO_LARGE',
              `A cookie file of more than ${COOKIE_MAX_BYTES / 1048576} MB is not a single-domain export.`,
            );
          }
        }
        hash.update(chunk);
        await handle.write(chunk);
      }
      await handle.sync();
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(path, { force: true });
      throw error;
    }
    return { path, size, sha256: hash.digest('hex'), head: Buffer.concat(head), fileName, mimeType };
  }
}
