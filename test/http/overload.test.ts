import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/relay.js';

/** Memory past its limit (1 MB: any process is) stands for every kind of overload: the answer is the same. */
describe('backpressure', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { OVERLOAD_MAX_RSS_MB: '1' } });
  });
  afterAll(() => t.close());

  it('turns requests away at once with 503 OVERLOADED and Retry-After, and still answers /health', async () => {
    let answer = await t.app.inject({ url: '/api/nip42/challenge?npub=x' });
    // The first measurement is taken shortly after start.
    await waitFor(async () => {
      answer = await t.app.inject({ url: '/api/nip42/challenge?npub=x' });
      return answer.statusCode === 503;
    });
    expect(answer.json()).toEqual({ detail: expect.stringContaining('overloaded'), code: 'OVERLOADED' });
    expect(answer.headers['retry-after']).toBe('10');
    expect(answer.headers['x-reason']).toContain('overloaded');
    expect((await t.app.inject({ url: '/health' })).statusCode).not.toBe(503);
  });
});

describe('no backpressure limits', () => {
  it('registers nothing when both limits are 0', async () => {
    const t = await buildTestApp({ env: { OVERLOAD_MAX_EVENT_LOOP_DELAY: '0' } });
    try {
      expect(t.app.hasDecorator('memoryUsage')).toBe(false);
    } finally {
      await t.close();
    }
  });
});
