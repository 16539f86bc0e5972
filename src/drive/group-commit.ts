import type { DriveLocks, Tenure } from './lock.js';
import type { DriveFileResult, Placement, PlacementOutcome } from './writer.js';

interface Waiting {
  placement: Placement;
  resolve: (result: DriveFileResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commits per drive: placements that arrive while their drive is busy (its lock held by another batch
 * or another process) wait together and are applied in one step (`DriveWriter.placeAll`: one manifest write,
 * one new root, one journal record), so a burst of uploads costs one publication instead of one each.
 */
export class GroupCommits {
  private readonly queues = new Map<string, Waiting[]>();

  constructor(private readonly locks: Pick<DriveLocks, 'run'>) {}

  /** `apply` places a batch of the drive at `driveDir` (its owner's writer); every caller of a drive passes the same. */
  place(
    driveDir: string,
    placement: Placement,
    apply: (batch: Placement[], tenure: Tenure) => Promise<PlacementOutcome[]>,
  ): Promise<DriveFileResult> {
    return new Promise((resolve, reject) => {
      const waiting = { placement, resolve, reject };
      const open = this.queues.get(driveDir);
      if (open) {
        open.push(waiting);
        return;
      }
      const batch = [waiting];
      this.queues.set(driveDir, batch);
      const close = () => {
        if (this.queues.get(driveDir) === batch) this.queues.delete(driveDir);
      };
      this.locks
        .run(driveDir, async (tenure) => {
          // The batch closes when the lock is ours: whatever arrived while it was being taken is in it.
          close();
          const outcomes = await apply(
            batch.map((w) => w.placement),
            tenure,
          );
          batch.forEach((w, i) => {
            const outcome = outcomes[i];
            if (outcome?.ok) w.resolve(outcome.result);
            else w.reject(outcome ? outcome.error : new Error('the drive did not place this file'));
          });
        })
        .catch((error: unknown) => {
          close();
          // Settling twice is a no-op: only placements not answered yet get the error.
          batch.forEach((w) => w.reject(error));
        });
    });
  }
}
