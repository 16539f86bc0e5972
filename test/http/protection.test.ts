import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('rate limiting and security headers', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const hit = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/health', remoteAddress, headers });

  async function hitMany(count: number, remoteAddress: string, headers: Record<string, string> = {}) {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await hit(remoteAddress, headers)).statusCode);
    return statuses;
  }

  it('answers the 101st request of a window with 429, Retry-After and {detail, code}', async () => {
    t = await buildTestApp({ env: { TRUSTED_IPS: '10.9.9.9' } });
    const statuses = await hitMany(100, '192.0.2.1');
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await hit('192.0.2.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({ detail: expect.stringContaining('retry in'), code: 'RATE_LIMITED' });
    expect((await hit('192.0.2.2')).statusCode).toBe(200); // per address
  });

  it('never limits a trusted IP or CIDR', async () => {
    t = await buildTestApp({ env: { TRUSTED_IPS: '10.9.0.0/16', RATE_LIMIT_MAX: '3' } });
    expect(await hitMany(10, '10.9.1.2')).toEqual(Array(10).fill(200));
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    t = await buildTestApp({ env: { TRUSTED_IPS: '10.9.9.9', RATE_LIMIT_MAX: '3' } });
    const spoofed = await hitMany(4, '192.0.2.5', { 'x-forwarded-for': '10.9.9.9' });
    expect(spoofed).toEqual([200, 200, 200, 429]);
    // Rotating the header does not give a fresh budget either.
    expect((await hit('192.0.2.5', { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
  });

  it('takes the client address from X-Forwarded-For only through TRUSTED_PROXIES', async () => {
    t = await buildTestApp({
      env: { TRUSTED_IPS: '10.9.9.9', TRUSTED_PROXIES: '192.0.2.10', RATE_LIMIT_MAX: '3' },
    });
    expect(await hitMany(5, '192.0.2.10', { 'x-forwarded-for': '10.9.9.9' })).toEqual(Array(5).fill(200));
    expect(await hitMany(4, '192.0.2.10', { 'x-forwarded-for': '198.51.100.1' })).toEqual([
      200, 200, 200, 429,
    ]);
    expect((await hit('192.0.2.10', { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(200);
  });

  it('sends security headers on every answer, errors included', async () => {
    t = await buildTestApp();
    for (const url of ['/health', '/no-such-page']) {
      const res = await t.app.inject({ url });
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});
