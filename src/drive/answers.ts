import { localTimestamp } from '../clock.js';
import type { MediaFields } from './media/service.js';
import { wrapperOf } from './media/wrap.js';
import type { DriveFileResult } from './service.js';

/** The docs/api-contract.md §7 answer for a file put in a drive (HTTP upload, and the CLI's JSON lines). */
export function uploadAnswer(result: DriveFileResult, requested: string, at: number) {
  const { entry } = result;
  const message = result.renamed
    ? `File saved as ${entry.path}: a file named ${requested} already exists.`
    : `File saved as ${entry.path}.`;
  return {
    success: true as const,
    message,
    file_path: result.filePath,
    file_type: entry.file_type,
    target_directory: result.targetDirectory,
    new_cid: result.rootCid,
    file_cid: entry.cid,
    fileName: entry.name,
    fileHash: entry.sha256,
    mimeType: entry.mime_type,
    size: entry.size,
    timestamp: localTimestamp(at),
    auth_verified: true as const,
  };
}

/**
 * `/api/fileupload`'s answer for a file that is not a cookie file (UPassport's UploadResponse): `new_cid` is
 * the `ipfs add -w` directory of the file, so `<gateway>/ipfs/<new_cid>/<fileName>` is the file; the drive
 * root moves to `drive_cid`; the media fields are null when unknown.
 */
export function fileUploadAnswer(result: DriveFileResult, media: MediaFields, requested: string, at: number) {
  return {
    ...uploadAnswer(result, requested, at),
    new_cid: wrapperOf(result.entry),
    drive_cid: result.rootCid,
    ...media,
  };
}
