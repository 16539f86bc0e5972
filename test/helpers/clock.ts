import type { Clock } from '../../src/clock.js';

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 10, 22, 9, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  seconds(): number {
    return Math.floor(this.ms / 1000);
  }
}
