import { describe, expect, it } from 'vitest';
import { OutageLog } from '../src/outage-log.js';
import { ManualClock } from './helpers/clock.js';

function recorder() {
  const lines: { level: string; fields: object; msg: string }[] = [];
  const logger = {
    warn: (fields: object, msg: string) => lines.push({ level: 'warn', fields, msg }),
    info: (fields: object, msg: string) => lines.push({ level: 'info', fields, msg }),
  };
  return { lines, logger };
}

describe('OutageLog', () => {
  it('logs the first failure and the recovery, with the count and the duration, nothing in between', () => {
    const clock = new ManualClock(1_000_000);
    const { lines, logger } = recorder();
    const outage = new OutageLog('indexer http://x', logger as never, clock);
    outage.succeeded();
    expect(lines).toEqual([]);
    for (let i = 0; i < 50; i++) {
      outage.failed(`refused ${i}`, { url: 'http://x' });
      clock.advance(1_000);
    }
    expect(outage.down).toBe(true);
    outage.succeeded({ url: 'http://x' });
    outage.succeeded();
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: { url: 'http://x', reason: 'refused 0' },
        msg: 'indexer http://x unreachable',
      },
      {
        level: 'info',
        fields: { url: 'http://x', failed_calls: 50, down_s: 50 },
        msg: 'indexer http://x back after 50 failed calls',
      },
    ]);
    expect(outage.down).toBe(false);
  });

  it('starts a new outage after a recovery', () => {
    const { lines, logger } = recorder();
    const outage = new OutageLog('relay ws://r', logger as never, new ManualClock(0));
    outage.failed('a');
    outage.succeeded();
    outage.failed('b');
    expect(lines.map((line) => line.msg)).toEqual([
      'relay ws://r unreachable',
      'relay ws://r back after 1 failed call',
      'relay ws://r unreachable',
    ]);
  });
});
