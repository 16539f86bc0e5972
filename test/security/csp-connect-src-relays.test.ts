import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** The pages' CSP lists the station's own relays, never any WebSocket. */
describe('Content-Security-Policy connect-src', () => {
  let t: TestApp;
  afterEach(() => t.close());

  async function connectSrc(url: string, headers: Record<string, string> = {}, remoteAddress?: string) {
    const res = await t.app.inject({ url, headers, remoteAddress });
    const csp = String(res.headers['content-security-policy']);
    const directive = csp.split(';').find((d) => d.trim().startsWith('connect-src'));
    return directive!.trim().split(/\s+/).slice(1);
  }
  const wildcard = (sources: string[]) => sources.filter((s) => /^(wss?:|\*|https?:)$/.test(s));

  it('names the configured relays of /nostr and nothing wider', async () => {
    t = await buildTestApp({
      env: {
        RELAY_URL: 'wss://relay.station.example',
        RELAY_URLS: 'wss://relay.friend.example/nostr',
        RELAY_PUBLIC_URLS: 'wss://public.station.example',
      },
    });
    const sources = await connectSrc('/nostr');
    expect(sources).toEqual(
      expect.arrayContaining([
        "'self'",
        'wss://relay.station.example',
        'wss://relay.friend.example/nostr',
        'wss://public.station.example',
      ]),
    );
    expect(wildcard(sources)).toEqual([]);
    expect(sources).not.toContain('ws:');
    expect(sources).not.toContain('wss:');
  });

  it('adds the address the page derives from a loopback relay, for the host the page was loaded from', async () => {
    t = await buildTestApp({ env: { TRUSTED_PROXIES: '192.0.2.10' } });
    const relay = new URL(t.app.relay.url);
    expect(await connectSrc('/nostr')).toEqual(expect.arrayContaining([`ws://127.0.0.1:${relay.port}`]));
    const proxied = await connectSrc(
      '/nostr',
      { host: 'station.example', 'x-forwarded-proto': 'https' },
      '192.0.2.10',
    );
    expect(proxied).toContain(`wss://station.example:${relay.port}`);
    expect(wildcard(proxied)).toEqual([]);
    // Each host keeps its own form, asked in any order (the forms are remembered per scheme and host).
    const other = await connectSrc('/nostr', { host: 'other.example' }, '192.0.2.10');
    expect(other).toContain(`ws://other.example:${relay.port}`);
    expect(other).not.toContain(`wss://station.example:${relay.port}`);
    const again = await connectSrc(
      '/nostr',
      { host: 'station.example', 'x-forwarded-proto': 'https' },
      '192.0.2.10',
    );
    expect(again).toContain(`wss://station.example:${relay.port}`);
    expect(again).not.toContain(`ws://other.example:${relay.port}`);
    expect(await connectSrc('/nostr')).not.toContain(`ws://other.example:${relay.port}`);
  });

  it('never lets a Host header write into the policy', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({
      url: '/nostr',
      headers: { host: "evil.example;script-src 'unsafe-inline'" },
    });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).not.toContain('evil.example');
    expect(csp).not.toContain("script-src 'unsafe-inline'");
    expect(csp.split(';').filter((d) => d.trim().startsWith('script-src '))).toEqual(["script-src 'self'"]);
  });
});
