import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/drive/in-flight.js';

/** Uploads whose client went away must end before the stores they write to are closed (app onClose). */
describe('InFlight', () => {
  it('drains tracked work, including work started while draining, failed work included', async () => {
    const inFlight = new InFlight();
    const settled: string[] = [];
    let release!: () => void;
    const first = inFlight.track(
      new Promise<void>((resolve) => (release = resolve)).then(() => {
        settled.push('first');
        // Started while the drain waits: the drain waits for it too.
        void inFlight.track(Promise.reject(new Error('disk gone')).catch(() => void settled.push('second')));
      }),
    );
    let drained = false;
    const draining = inFlight.drain().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    release();
    await draining;
    await first;
    expect(settled).toEqual(['first', 'second']);
    await expect(inFlight.drain()).resolves.toBeUndefined();
  });
});
