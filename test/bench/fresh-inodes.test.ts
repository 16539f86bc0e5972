import { describe, expect, it } from 'vitest';
import { RECENTLY_DELETED_DIRTY_MS, RECENTLY_DELETED_MS, waitNeeded } from '../../bench/fresh-inodes.js';

describe('waitNeeded (bench/fresh-inodes.ts)', () => {
  const now = 1_800_000_000_000;

  it('waits out what remains of the window after a noted removal', () => {
    expect(waitNeeded(now - 1_000, now)).toBe(RECENTLY_DELETED_MS - 1_000);
    expect(waitNeeded(now, now)).toBe(RECENTLY_DELETED_MS);
  });

  it('does not wait once the window has passed', () => {
    expect(waitNeeded(now - RECENTLY_DELETED_MS, now)).toBe(0);
    expect(waitNeeded(now - 10 * RECENTLY_DELETED_MS, now)).toBe(0);
  });

  it('waits out the longer window when asked to (a freed inode whose table block is dirty again)', () => {
    expect(waitNeeded(now - 100_000, now, RECENTLY_DELETED_DIRTY_MS)).toBe(
      RECENTLY_DELETED_DIRTY_MS - 100_000,
    );
    expect(waitNeeded(now - RECENTLY_DELETED_DIRTY_MS, now, RECENTLY_DELETED_DIRTY_MS)).toBe(0);
    expect(RECENTLY_DELETED_DIRTY_MS).toBeGreaterThan(RECENTLY_DELETED_MS);
  });

  it('does not wait when nothing readable was noted, or the note is from the future', () => {
    expect(waitNeeded(null, now)).toBe(0);
    expect(waitNeeded(Number.NaN, now)).toBe(0);
    expect(waitNeeded(now + 5_000, now)).toBe(0);
  });
});
