import type { Database, Key } from 'lmdb';
import { ID_MAX } from './indexes.js';

/** One stored event as NIP-77 sees it: its `created_at` and id. */
export type IdPair = readonly [createdAt: number, id: string];

/** Keys read from LMDB at a time, per range: short synchronous reads, each from where the last one ended. */
const CHUNK = 1_024;

export const pairBefore = (a: IdPair, b: IdPair): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** One prefix's range of an index (`[...prefix, created_at, id]` keys), ascending, a chunk at a time. */
class RangeReader {
  private keys: Key[][] = [];
  private at = 0;
  private last: Key[] | null = null;
  private exhausted = false;

  constructor(
    private readonly db: Database<Buffer, Key>,
    private readonly prefix: Key[],
    private readonly since: number,
    private readonly until: number,
  ) {}

  /** The range's next pair, not consumed; undefined at its end. */
  head(): IdPair | undefined {
    if (this.at >= this.keys.length && !this.exhausted) this.refill();
    const key = this.keys[this.at];
    const n = this.prefix.length;
    return key && [key[n] as number, key[n + 1] as string];
  }

  shift(): void {
    this.at++;
  }

  private refill(): void {
    const range = this.db.getKeys({
      start: this.last ?? [...this.prefix, this.since],
      exclusiveStart: this.last !== null,
      end: [...this.prefix, this.until, ID_MAX],
      limit: CHUNK,
    });
    this.keys = [...(range as Iterable<Key[]>)];
    this.at = 0;
    this.exhausted = this.keys.length < CHUNK;
    this.last = this.keys[this.keys.length - 1] ?? this.last;
  }
}

/**
 * The pairs of several ranges of one index merged into one ascending sequence (created_at, then id), through
 * a binary heap of the ranges' heads: a filter of a thousand authors costs a logarithm per pair, not a scan.
 * An event found under two prefixes (two tag values) comes out twice, one right after the other.
 */
export function mergedRanges(
  db: Database<Buffer, Key>,
  prefixes: Key[][],
  since: number,
  until: number,
): () => IdPair | undefined {
  const heap: Array<{ reader: RangeReader; pair: IdPair }> = [];
  const less = (i: number, j: number) => pairBefore(heap[i]!.pair, heap[j]!.pair);
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const down = (from: number) => {
    for (let i = from; ;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (l < heap.length && less(l, least)) least = l;
      if (r < heap.length && less(r, least)) least = r;
      if (least === i) return;
      swap(i, least);
      i = least;
    }
  };
  for (const prefix of prefixes) {
    const reader = new RangeReader(db, prefix, since, until);
    const pair = reader.head();
    if (pair) heap.push({ reader, pair });
  }
  for (let i = Math.floor(heap.length / 2) - 1; i >= 0; i--) down(i);
  return () => {
    const top = heap[0];
    if (!top) return undefined;
    const { pair, reader } = top;
    reader.shift();
    const next = reader.head();
    if (next) top.pair = next;
    else heap[0] = heap[heap.length - 1]!;
    if (!next) heap.pop();
    down(0);
    return pair;
  };
}
