import { InvalidInput } from '../errors.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1_000;

/** Where the previous page ended: its last item's time, and how many items of that time it had reached. */
interface Position {
  timeMs: number;
  skip: number;
}

export interface Paging {
  limit: number;
  after: Position | null;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,64}$/;
const POSITION = /^(\d{1,15})\.([1-9]\d{0,8})$/;

/**
 * A cursor names a place in time, not an index: lists are newest first, so transfers that arrive between two
 * requests (on top) do not shift the next page. Opaque to clients (base64url), checked strictly here.
 */
function encodeCursor({ timeMs, skip }: Position): string {
  return Buffer.from(`${timeMs}.${skip}`).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  const position = CURSOR_TEXT.test(cursor)
    ? POSITION.exec(Buffer.from(cursor, 'base64url').toString())
    : null;
  if (!position)
    throw new InvalidInput('INVALID_CURSOR', {
      en: 'cursor must be a next_cursor this service gave.',
      fr: 'cursor doit être un next_cursor donné par ce service.',
    });
  return { timeMs: Number(position[1]), skip: Number(position[2]) };
}

/** Null when neither `limit` nor `cursor` is given: the whole list, as before paging existed. */
export function parsePaging(query: { limit?: string; cursor?: string }): Paging | null {
  if (query.limit === undefined && query.cursor === undefined) return null;
  // The schema lets through digits only (a number type would let ajv turn 1e309 into Infinity).
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new InvalidInput('INVALID_LIMIT', {
      en: `limit must be a whole number from 1 to ${MAX_LIMIT}.`,
      fr: `limit doit être un nombre entier de 1 à ${MAX_LIMIT}.`,
    });
  }
  return { limit, after: query.cursor === undefined ? null : decodeCursor(query.cursor) };
}

/** First index whose time is at or before `timeMs`, in times sorted newest first. */
function firstAtOrBefore(times: readonly number[], timeMs: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! > timeMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One page of `items` (newest first, `times[i]` the time of `items[i]`) and the cursor of the next. */
export function pageOf<T>(items: readonly T[], times: readonly number[], paging: Paging): Page<T> {
  let start = 0;
  if (paging.after) {
    const { timeMs, skip } = paging.after;
    start = firstAtOrBefore(times, timeMs);
    // Past the items of that same time the previous page already gave, never past the last of them.
    for (let n = 0; n < skip && times[start] === timeMs; n++) start++;
  }
  const end = Math.min(start + paging.limit, items.length);
  let next_cursor: string | null = null;
  if (end < items.length && end > start) {
    const timeMs = times[end - 1]!;
    next_cursor = encodeCursor({ timeMs, skip: end - firstAtOrBefore(times, timeMs) });
  }
  return { items: items.slice(start, end), next_cursor };
}
