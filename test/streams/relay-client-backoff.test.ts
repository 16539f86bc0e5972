import { describe, expect, it } from 'vitest';
import { Backoff } from '../../streams/relay-backoff.js';

describe('relay client back-off', () => {
  it('doubles up to the maximum, with jitter between half and all of each step', () => {
    const low = new Backoff({ initialMs: 100, maxMs: 1_000 }, () => 0);
    const high = new Backoff({ initialMs: 100, maxMs: 1_000 }, () => 1);
    expect(Array.from({ length: 6 }, () => low.next())).toEqual([50, 100, 200, 400, 500, 500]);
    expect(Array.from({ length: 6 }, () => high.next())).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('starts again from the initial delay after a reset, and stays finite after many failures', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 1_000 }, () => 1);
    for (let i = 0; i < 5_000; i++) expect(backoff.next()).toBeLessThanOrEqual(1_000);
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });
});
