import { describe, expect, it } from 'vitest';
import { UploadGate, UploadLimits } from '../../src/http/upload-gate.js';
import { ManualClock } from '../helpers/clock.js';

describe('UploadGate', () => {
  const make = (clock = new ManualClock()) =>
    new UploadGate({ maxConcurrent: 2, maxPerWindow: 5, windowMs: 60_000, clock });

  it('allows two uploads of one user at once, a third only after one ends', () => {
    const gate = make();
    const first = gate.acquire('alice');
    gate.acquire('alice');
    expect(() => gate.acquire('alice')).toThrowError(
      expect.objectContaining({ code: 'UPLOAD_CONCURRENCY_LIMITED' }),
    );
    expect(() => gate.acquire('bob')).not.toThrow();
    first();
    first(); // releasing twice frees one slot only
    expect(() => gate.acquire('alice')).not.toThrow();
    expect(() => gate.acquire('alice')).toThrow();
  });

  it('limits uploads started per window, with Retry-After', () => {
    const clock = new ManualClock();
    const gate = make(clock);
    for (let i = 0; i < 5; i++) gate.acquire('alice')();
    let refused: unknown;
    try {
      gate.acquire('alice');
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: 'UPLOAD_RATE_LIMITED',
      retryAfterSeconds: 60,
    });
    clock.advance(60_000);
    expect(() => gate.acquire('alice')()).not.toThrow();
  });

  it('slides its window over many starts exactly as counting every start again would', () => {
    const clock = new ManualClock();
    const gate = new UploadGate({ maxConcurrent: 1, maxPerWindow: 500, windowMs: 1_000, clock });
    const accepted: number[] = [];
    let refusals = 0;
    for (let i = 0; i < 20_000; i++) {
      clock.advance(Math.floor(Math.random() * 4));
      const now = clock.now();
      const expected = accepted.filter((at) => now - at < 1_000).length < 500;
      let granted = true;
      try {
        gate.acquire('alice')();
      } catch (error) {
        expect(error).toMatchObject({ code: 'UPLOAD_RATE_LIMITED' });
        granted = false;
        refusals += 1;
      }
      expect(granted).toBe(expected);
      if (granted) accepted.push(now);
    }
    // Both outcomes were exercised: the window filled up and emptied again many times.
    expect(refusals).toBeGreaterThan(1_000);
    expect(accepted.length).toBeGreaterThan(1_000);
  });

  it('forgets users whose window has passed', () => {
    const clock = new ManualClock();
    const gate = make(clock);
    gate.acquire('alice')();
    clock.advance(61_000);
    gate.prune();
    expect((gate as unknown as { started: Map<string, unknown> }).started.size).toBe(0);
  });
});

describe('UploadLimits, station-wide', () => {
  it('answers 503 STATION_BUSY with Retry-After once the station receives its maximum, trusted addresses too', () => {
    const clock = new ManualClock();
    const gate = () => new UploadGate({ maxConcurrent: 10, maxPerWindow: 100, windowMs: 60_000, clock });
    const limits = new UploadLimits(gate(), gate(), ['127.0.0.1'], 3);
    const slots = [
      limits.acquireAddress('127.0.0.1'),
      limits.acquireAddress('10.0.0.1'),
      limits.acquireAddress('10.0.0.2'),
    ];
    let refused: unknown;
    try {
      limits.acquireAddress('127.0.0.1');
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'STATION_BUSY', retryAfterSeconds: 5 });
    slots[0]!();
    slots[0]!(); // releasing twice frees one slot only
    expect(() => limits.acquireAddress('10.0.0.3')).not.toThrow();
    expect(() => limits.acquireAddress('10.0.0.4')).toThrow();
  });
});
