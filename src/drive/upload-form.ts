import type { FastifyRequest } from 'fastify';
import { BadRequestError } from '../http/errors.js';
import { QuotaExceededError, type StagedFile, type StagingArea } from './staging.js';

export interface StagedUploadFile extends StagedFile {
  /** As the client named it; sanitised when it is placed. */
  fileName: string;
  mimeType: string;
}

export interface UploadForm {
  fields: Record<string, string>;
  file: StagedUploadFile | null;
}

/**
 * Reads a multipart upload (`file` plus fields such as `npub`) before its sender is authenticated: a NIP-98
 * `payload` tag covers the whole body, so authentication waits for its end. The file streams to the staging
 * area (never whole in memory), bounded by `maxBytes`.
 */
export async function receiveUploadForm(
  request: FastifyRequest,
  staging: StagingArea,
  maxBytes: number,
): Promise<UploadForm> {
  const fields: Record<string, string> = {};
  let file: StagedUploadFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
      } else if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw new BadRequestError('UNEXPECTED_FILE', 'Send exactly one file, in the form field "file".');
      } else {
        const staged = await staging.receive(part.file, maxBytes);
        file = { ...staged, fileName: part.filename ?? '', mimeType: part.mimetype };
        // The multipart size limit ends the stream early instead of failing it.
        if (part.file.truncated) throw new QuotaExceededError(maxBytes);
      }
    }
  } catch (error) {
    if (file) await staging.discard(file);
    throw error;
  }
  return { fields, file };
}
