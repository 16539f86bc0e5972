import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { nip98Header, type TestKey } from '../helpers/nostr.js';
import { register } from '../helpers/relay-station.js';

/**
 * Finding: with TRUSTED_PROXIES set, a NIP-98 token signed for another site's URL was accepted when
 * X-Forwarded-Host named that site. The `u` tag must name one of the station's own origins.
 */
describe('NIP-98 URLs are checked against the station’s own origins', () => {
  let t: TestApp;
  let user: TestKey;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1', PUBLIC_URL: 'https://station.example' } });
    user = await register(t, 'user@example.org');
  });
  afterAll(() => t.close());

  const me = (url: string, headers: Record<string, string>) =>
    t.app.inject({ url: '/api/me', headers: { authorization: nip98Header(user, url, 'GET'), ...headers } });

  it('refuses a token for another site, forwarded or direct', async () => {
    const forwarded = await me('https://evil.example/api/me', {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(forwarded.statusCode).toBe(401);
    expect(forwarded.json()).toMatchObject({
      code: 'AUTH_URL_MISMATCH',
      detail: expect.stringContaining('station.example'),
    });
    const direct = await me('http://evil.example/api/me', { host: 'evil.example' });
    expect(direct.json().code).toBe('AUTH_URL_MISMATCH');
  });

  it('accepts the public origin through the proxy, and loopback directly', async () => {
    const proxied = await me('https://station.example/api/me', {
      'x-forwarded-host': 'station.example',
      'x-forwarded-proto': 'https',
    });
    expect(proxied.statusCode).toBe(200);
    expect(proxied.json()).toMatchObject({ email: 'user@example.org', proof: true });
    expect((await me('http://localhost/api/me', {})).statusCode).toBe(200);
  });
});
