/** One satisfiable byte range of a representation of `size` bytes: `start` to `end` inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Parses a `Range` header for a `size`-byte body (RFC 9110 §14.1.2).
 * Returns `null` when the header is absent, not a bytes range, malformed or asks for several ranges (the
 * whole body is then sent with 200, as the RFC allows), and `'unsatisfiable'` for a range past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // Suffix range: the last N bytes.
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || (last !== '' && Number(last) < start)) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
