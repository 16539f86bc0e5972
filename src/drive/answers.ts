import { localTimestamp } from '../clock.js';
import type { Language } from '../i18n/localized.js';
import type { MediaFields } from './media/service.js';
import { wrapperOf } from './media/wrap.js';
import type { DriveFileResult } from './service.js';

/**
 * The docs/api-contract.md §7 answer for a file put in a drive (HTTP upload, and the CLI's JSON lines), its
 * message in `lang` (the pages show it).
 */
export function uploadAnswer(result: DriveFileResult, requested: string, at: number, lang: Language) {
  const { entry } = result;
  const message = result.renamed
    ? {
        en: `File saved as ${entry.path}: a file named ${requested} already exists.`,
        fr: `Fichier enregistré sous ${entry.path} : un fichier nommé ${requested} existe déjà.`,
      }
    : { en: `File saved as ${entry.path}.`, fr: `Fichier enregistré sous ${entry.path}.` };
  return {
    success: true as const,
    message: message[lang],
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
export function fileUploadAnswer(
  result: DriveFileResult,
  media: MediaFields,
  requested: string,
  at: number,
  lang: Language,
) {
  return {
    ...uploadAnswer(result, requested, at, lang),
    new_cid: wrapperOf(result.entry),
    drive_cid: result.rootCid,
    ...media,
  };
}
