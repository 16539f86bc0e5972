import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { deadUrl } from '../economy/squid-server.js';

interface Member {
  EMAIL?: string;
  HEX: string;
  LAT: number;
  LON: number;
  G1PUBNOSTR: string | null;
}

/** GET / discloses no e-mail except to the station's swarm (TRUSTED_IPS). */
describe('GET /: e-mails only for TRUSTED_IPS', () => {
  let t: TestApp;
  afterEach(() => t.close());

  async function start(env: Record<string, string> = {}) {
    t = await buildTestApp({ env: { SQUID_URL: await deadUrl(), ...env } });
    await t.deps.users.create({ email: 'near@example.org', gps: { lat: 43.6, lon: 1.44 } });
  }
  const get = (remoteAddress: string, url = '/?lat=43.6&lon=1.44', accept = 'application/json') =>
    t.app.inject({ url, remoteAddress, headers: { accept } });

  it('leaves e-mails out for an untrusted caller, keeping the other fields, cache or not', async () => {
    await start({ TRUSTED_IPS: '10.9.9.9' });
    for (const url of ['/?lat=43.6&lon=1.44', '/?lat=43.6&lon=1.44', '/']) {
      const res = await get('127.0.0.1', url);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('near@example.org');
      const member = (res.json().NOSTR as Member[])[0]!;
      expect(member).not.toHaveProperty('EMAIL');
      expect(member).toMatchObject({ HEX: expect.stringMatching(/^[0-9a-f]{64}$/), LAT: 43.6, LON: 1.44 });
      expect(member.G1PUBNOSTR).toMatch(/^g1/);
    }
    const page = await get('127.0.0.1', '/?lat=43.6&lon=1.44', 'text/html');
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toContain('near@example.org');
  });

  it('does not hand a report cached for the swarm to a stranger, nor the reverse', async () => {
    await start({ TRUSTED_IPS: '10.9.9.9' });
    const swarm = await get('10.9.9.9');
    expect((swarm.json().NOSTR as Member[])[0]!.EMAIL).toBe('near@example.org');
    expect(swarm.headers['cache-control']).toBe('private, no-store');
    const stranger = await get('192.0.2.4');
    expect(stranger.body).not.toContain('near@example.org');
    expect((await get('10.9.9.9')).json().NOSTR[0].EMAIL).toBe('near@example.org');
    expect((await get('192.0.2.4', '/?lat=43.6&lon=1.44', 'text/html')).body).not.toContain('@example.org');
  });

  it('shows e-mails to the default swarm (loopback)', async () => {
    await start();
    expect((await get('127.0.0.1')).json().NOSTR[0].EMAIL).toBe('near@example.org');
    expect((await get('192.0.2.4')).body).not.toContain('near@example.org');
  });

  it('judges the client address as Fastify does through TRUSTED_PROXIES', async () => {
    await start({ TRUSTED_IPS: '10.9.9.9', TRUSTED_PROXIES: '192.0.2.10' });
    const via = (peer: string, forwarded: string) =>
      t.app.inject({
        url: '/?lat=43.6&lon=1.44',
        remoteAddress: peer,
        headers: { 'x-forwarded-for': forwarded },
      });
    expect((await via('192.0.2.10', '10.9.9.9')).json().NOSTR[0].EMAIL).toBe('near@example.org');
    expect((await via('192.0.2.10', '198.51.100.3')).body).not.toContain('near@example.org');
    // Only the trusted proxy may say who the client is.
    expect((await via('192.0.2.9', '10.9.9.9')).body).not.toContain('near@example.org');
  });
});
