/** Time source injected everywhere time matters, so tests control it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}

/** ISO 8601 local date-time without zone, as the station's responses have always carried. */
export function localTimestamp(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
  );
}

/** Local calendar date `YYYY-MM-DD`. */
export function localDate(ms: number): string {
  return localTimestamp(ms).slice(0, 10);
}
