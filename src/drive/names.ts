import { InvalidInput } from '../errors.js';
import { isCategory, type DriveCategory } from './categories.js';

/** Most file systems limit a name to 255 bytes. */
const MAX_NAME_BYTES = 255;

/* eslint-disable no-control-regex */
/** Control characters, and invisible or direction-changing ones that disguise a name (`gpj.exe` shown reversed). */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
/* eslint-enable no-control-regex */
/** Characters Windows and the station's shell tools choke on; replaced, not dropped, so names stay readable. */
const AWKWARD = /[<>:"|?*]/g;

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Cuts `text` to at most `bytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(text: string, bytes: number): string {
  let out = '';
  for (const char of text) {
    if (utf8Length(out + char) > bytes) break;
    out += char;
  }
  return out;
}

function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/** Keeps the extension and shortens the stem so that `stem + suffix + extension` fits in 255 bytes. */
function fitName(stem: string, suffix: string, extension: string): string {
  const ext = utf8Length(extension) > 32 ? '' : extension;
  return truncateUtf8(stem, MAX_NAME_BYTES - utf8Length(suffix + ext)) + suffix + ext;
}

/**
 * A safe file name from what a client sent: the last path component only (`../../x` → `x`), Unicode kept
 * but normalised to NFC (`été.jpg` stays `été.jpg`), no control or invisible characters, never hidden (no
 * leading dot), at most 255 bytes with the extension preserved.
 */
export function sanitiseFileName(raw: string, fallback = 'file'): string {
  const last = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = last
    .replace(INVISIBLE, '')
    .replace(AWKWARD, '_')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  const name = cleaned === '' ? fallback : cleaned;
  const [stem, extension] = splitExtension(name);
  return fitName(stem, '', extension);
}

/** `a.jpg` → `a (1).jpg`, `a (2).jpg`, …: the candidates tried when `a.jpg` is taken. */
export function numberedName(name: string, n: number): string {
  const [stem, extension] = splitExtension(name);
  return fitName(stem, ` (${n})`, extension);
}

export interface DrivePath {
  category: DriveCategory;
  name: string;
  /** `Images/a.jpg`, relative to `APP/uDRIVE`. */
  path: string;
}

/**
 * Parses a client's path to a drive file, relative to `APP/uDRIVE` (`Images/a.jpg`); the `APP/uDRIVE/` prefix
 * of upload responses is accepted too. Anything that could leave the drive is a 400; a well-formed path
 * outside the four categories simply names no file (the caller's 404).
 */
export function parseDrivePath(raw: string): DrivePath | null {
  const text = raw.normalize('NFC').replace(/^\.\/+/, '');
  // eslint-disable-next-line no-control-regex
  if (text === '' || text.includes('\\') || /[\u0000-\u001f]/.test(text) || text.startsWith('/'))
    throw new InvalidInput('INVALID_FILE_PATH', {
      en: 'file_path must be a path inside the drive, like Images/a.jpg.',
      fr: 'file_path doit être un chemin dans le uDRIVE, comme Images/a.jpg.',
    });
  const segments = text.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..'))
    throw new InvalidInput('INVALID_FILE_PATH', {
      en: 'file_path must not leave the drive.',
      fr: 'file_path ne doit pas sortir du uDRIVE.',
    });
  const relative = segments[0] === 'APP' && segments[1] === 'uDRIVE' ? segments.slice(2) : segments;
  if (relative.length !== 2) return null;
  const [category, name] = relative as [string, string];
  if (!isCategory(category)) return null;
  return { category, name, path: `${category}/${name}` };
}
