import { lookup } from 'mime-types';
import { DRIVE_CATEGORIES } from '../identity/user-files.js';

export { DRIVE_CATEGORIES };
export type DriveCategory = (typeof DRIVE_CATEGORIES)[number];

/** The spec's "Drive categories and extensions" table; any other extension (or none) is a Document. */
const CATEGORY_BY_EXTENSION: Record<string, DriveCategory> = {
  jpg: 'Images',
  jpeg: 'Images',
  png: 'Images',
  gif: 'Images',
  bmp: 'Images',
  svg: 'Images',
  mp3: 'Music',
  wav: 'Music',
  ogg: 'Music',
  flac: 'Music',
  m4a: 'Music',
  mp4: 'Videos',
  avi: 'Videos',
  mov: 'Videos',
  mkv: 'Videos',
  webm: 'Videos',
  pdf: 'Documents',
  txt: 'Documents',
  doc: 'Documents',
  docx: 'Documents',
  odt: 'Documents',
};

/** `file_type` of upload responses, as the station's clients know it (cookies are `netscape_cookies`). */
const FILE_TYPE: Record<DriveCategory, string> = {
  Images: 'image',
  Music: 'audio',
  Videos: 'video',
  Documents: 'document',
};

/** Extensions for content that arrives without a name (a bare CID), from its sniffed type. */
const EXTENSION_BY_TYPE: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'text/plain': 'txt',
};

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function categoryFor(name: string): DriveCategory {
  return CATEGORY_BY_EXTENSION[extensionOf(name)] ?? 'Documents';
}

export function fileTypeFor(category: DriveCategory): string {
  return FILE_TYPE[category];
}

export function isCategory(value: string): value is DriveCategory {
  return (DRIVE_CATEGORIES as readonly string[]).includes(value);
}

export function mimeTypeFor(name: string): string {
  return (extensionOf(name) && lookup(name)) || 'application/octet-stream';
}

export function extensionForType(contentType: string): string | null {
  return EXTENSION_BY_TYPE[contentType.split(';')[0]!.trim()] ?? null;
}
