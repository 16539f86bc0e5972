import { unixSeconds, type Clock } from '../clock.js';
import type { StationDb } from '../state/station-db.js';

/**
 * NIP-98 event ids already accepted (each is single-use), in the station database: one small write per
 * authenticated request, batched by LMDB with the other writes of the moment, shared by every worker.
 */
export class ReplayRecords {
  constructor(
    private readonly db: StationDb['replay'],
    private readonly clock: Clock,
  ) {}

  /** True the first time `id` is claimed in any process; false if it was claimed before (and not yet swept). */
  claim(id: string, rememberUntil: number): Promise<boolean> {
    return this.db.ifNoExists(id, () => void this.db.put(id, rememberUntil));
  }

  /** Gives a claim back: the request it was spent on failed on the station's side (a full disk). */
  async release(id: string): Promise<void> {
    await this.db.remove(id);
  }

  /** Whether `id` was claimed (and not yet swept); claims nothing. */
  seen(id: string): boolean {
    return this.db.get(id) !== undefined;
  }

  async sweep(): Promise<number> {
    const now = unixSeconds(this.clock);
    const expired = [...this.db.getRange({})].filter(({ value }) => value < now).map(({ key }) => key);
    if (expired.length > 0)
      await this.db.transaction(() => expired.forEach((key) => void this.db.remove(key)));
    return expired.length;
  }
}
