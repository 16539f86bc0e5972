import { describe, expect, it } from 'vitest';
import { recentAnswer } from '../../src/http/recent-answer.js';

describe('recentAnswer', () => {
  it('answers repeated calls from one probe until the answer is too old', async () => {
    let now = 0;
    let probes = 0;
    const answer = recentAnswer(
      async () => ++probes,
      1_000,
      () => now,
    );
    expect(await answer()).toBe(1);
    now = 999;
    expect(await answer()).toBe(1);
    now = 1_000;
    expect(await answer()).toBe(2);
    expect(probes).toBe(2);
  });

  it('does not keep a failed answer: the next call probes again', async () => {
    let probes = 0;
    const answer = recentAnswer(
      async () => {
        probes++;
        if (probes === 1) throw new Error('unreadable');
        return 'ok';
      },
      1_000,
      () => 0,
    );
    await expect(answer()).rejects.toThrow('unreadable');
    expect(await answer()).toBe('ok');
    expect(probes).toBe(2);
  });
});
