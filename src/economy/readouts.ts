import { PreparedAnswer, type Compressor } from './prepared-answer.js';

/** A report as a route computes it from one ledger snapshot, with the time of each listed transfer. */
export interface Computed<R extends object> {
  report: R;
  times: readonly number[];
}

/**
 * One report of one snapshot: shared, read-only, by every request until the ledger hands out a new snapshot.
 * Its JSON (a few megabytes for 10,000 transfers) is made on the first full JSON request only: pages and
 * paged answers never need it.
 */
export class Readout<R extends object> implements Computed<R> {
  private prepared: PreparedAnswer | undefined;

  constructor(
    readonly report: R,
    readonly times: readonly number[],
    private readonly compress?: Compressor,
  ) {}

  /**
   * JSON.stringify of the report: its fields are built in the order of the response schema, so these are the
   * bytes Fastify's serializer would write (the routes' tests compare them).
   */
  answer(): PreparedAnswer {
    this.prepared ??= new PreparedAnswer(JSON.stringify(this.report), this.compress);
    return this.prepared;
  }
}

/** Variants kept per snapshot (years of /check_revenue): a client naming every year cannot grow it past this. */
const PER_SNAPSHOT = 16;

/**
 * Readouts keyed by the ledger snapshot they come from (the transfer array `CachedLedger` returns for as
 * long as an entry lives), then by a variant key. A WeakMap: when the ledger drops a snapshot, its readouts,
 * serialized and compressed bytes go with it; no expiry of our own to keep in step with the ledger's.
 */
export class ReadoutCache<R extends object> {
  private readonly bySnapshot = new WeakMap<object, Map<string, Readout<R>>>();

  constructor(private readonly compress?: Compressor) {}

  get(snapshot: object, key: string, compute: () => Computed<R>): Readout<R> {
    let variants = this.bySnapshot.get(snapshot);
    if (!variants) {
      variants = new Map();
      this.bySnapshot.set(snapshot, variants);
    }
    let readout = variants.get(key);
    if (!readout) {
      const { report, times } = compute();
      readout = new Readout(report, times, this.compress);
      if (variants.size >= PER_SNAPSHOT) variants.delete(variants.keys().next().value!);
      variants.set(key, readout);
    }
    return readout;
  }
}
