import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { InvalidInput, NotFound } from '../errors.js';
import { CookieScanner, type CookieScan } from './netscape.js';

/**
 * Cookie files at the root of a user directory (docs/api-contract.md §3): `.<domain>.cookie`, or
 * `.cookie.txt`.
 */
export const NO_DOMAIN_FILE = '.cookie.txt';

const COOKIE_FILE = /^\.(.+)\.cookie$/;

export function cookieFileName(domain: string | null): string {
  return domain === null ? NO_DOMAIN_FILE : `.${domain}.cookie`;
}

/** The domain a directory entry stores cookies for: a string, null for `.cookie.txt`, undefined otherwise. */
export function domainOfFileName(name: string): string | null | undefined {
  if (name === NO_DOMAIN_FILE) return null;
  return COOKIE_FILE.exec(name)?.[1];
}

/** Cookie values are a few kilobytes at most; a longer "line" is not a cookie file. */
export const MAX_LINE_BYTES = 64 * 1024;

/** Splits a byte stream on LF (CR is left for the parser); each line decoded as Latin-1, bounded in length. */
export async function* readLines(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxLineBytes = MAX_LINE_BYTES,
) {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let lineNumber = 0;
  for await (const chunk of chunks) {
    let buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let newline = buffer.indexOf(0x0a);
    while (newline !== -1) {
      const piece = buffer.subarray(0, newline);
      lineNumber += 1;
      if (pendingLength + piece.length > maxLineBytes) throw lineTooLong(lineNumber);
      yield Buffer.concat([...pending, piece]).toString('latin1');
      pending = [];
      pendingLength = 0;
      buffer = buffer.subarray(newline + 1);
      newline = buffer.indexOf(0x0a);
    }
    pendingLength += buffer.length;
    if (pendingLength > maxLineBytes) throw lineTooLong(lineNumber + 1);
    if (buffer.length > 0) pending.push(Buffer.from(buffer));
  }
  if (pendingLength > 0) yield Buffer.concat(pending).toString('latin1');
}

function lineTooLong(lineNumber: number): InvalidInput {
  return new InvalidInput('COOKIE_LINE_TOO_LONG', {
    en: `Line ${lineNumber} is too long for a cookie file.`,
    fr: `La ligne ${lineNumber} est trop longue pour un fichier de cookies.`,
  });
}

/**
 * Opens a regular file without following a symbolic link at the last component: a link planted in a user
 * directory never makes the service read (or serve) a file elsewhere. Missing or not regular → null.
 */
export async function openRegularNoFollow(path: string): Promise<FileHandle | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENXIO') return null;
    throw error;
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    return null;
  }
  return handle;
}

/** Streams a cookie file through the scanner; never holds it whole. */
export async function scanCookieStream(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<CookieScan> {
  const scanner = new CookieScanner();
  for await (const line of readLines(chunks)) scanner.feed(line);
  return scanner.result();
}

/**
 * Scans a file held whole in memory (an upload staging kept: at most its sniff size), line by line as
 * `readLines` splits them, without a promise per line.
 */
export function scanCookieBytes(bytes: Uint8Array, maxLineBytes = MAX_LINE_BYTES): CookieScan {
  // Decoded once: each line is then a slice of one string, not a copy of its own.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const scanner = new CookieScanner();
  let lineNumber = 0;
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    lineNumber += 1;
    if (end - start > maxLineBytes) throw lineTooLong(lineNumber);
    scanner.feed(text.slice(start, end));
    start = end + 1;
  }
  return scanner.result();
}

/** Scans a file on disk (no symlink following); 404 when it is missing. */
export async function scanCookieFile(path: string): Promise<CookieScan> {
  const handle = await openRegularNoFollow(path);
  if (!handle)
    throw new NotFound('COOKIE_NOT_FOUND', {
      en: 'There is no such cookie file.',
      fr: 'Ce fichier de cookies n’existe pas.',
    });
  try {
    return await scanCookieStream(handle.createReadStream({ autoClose: false }));
  } finally {
    await handle.close();
  }
}
