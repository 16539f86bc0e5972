import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { LAN_HOST, portsFree, requestAs, startLanStation, type LanStation } from '../helpers/lan-station.js';
import { multipart } from '../helpers/multipart.js';
import { keyFromSecret, nip98Header, type TestKey } from '../helpers/nostr.js';
import { RelayClient } from '../../streams/relay-client.js';

// The usual ports, when free here; else port 0 on the same host (a station elsewhere on this machine).
const DEFAULT_PORTS_FREE = await portsFree(LAN_HOST, [7777, 8080]);
const LOOPBACK_PORTS_FREE = await portsFree('127.0.0.1', [7777, 8080]);
const PHONE = '127.0.0.3';

/** Every http(s)/ws(s) URL in a text (JSON, HTML attributes, a CSP header). */
const urlsIn = (text: string) =>
  [...text.matchAll(/(?:https?|wss?):\/\/[a-z0-9[][^\s"'<>;,&\]]*/gi)].map((m) => m[0]);

/**
 * docs/api-contract.md §2, "Addresses given to clients": a station used from phones on its Wi-Fi. The embedded
 * relay and gateway listen where the API does (HOST), and every URL a page or an answer gives is on the host
 * the client used, never a loopback address of the station's.
 */
describe('a station on a LAN (HOST=127.0.0.2)', () => {
  let lan: LanStation;
  let member: TestKey;
  let gatewayPort: string;
  let relayPort: string;
  const phone = () => `${PHONE}:${lan.port}`;
  const get = (path: string, headers: Record<string, string> = {}) =>
    requestAs(phone(), lan.port, path, { headers });

  beforeAll(async () => {
    lan = await startLanStation(
      DEFAULT_PORTS_FREE ? {} : { RELAY_URL: `ws://${LAN_HOST}:0`, IPFS_GATEWAY: `http://${LAN_HOST}:0` },
    );
    const created = await lan.station.app.users.create({ email: 'phone@example.org' });
    member = keyFromSecret(created.keys.nostr.secretKey);
    relayPort = new URL(lan.station.relayUrl).port;
    const webcam = await requestAs(`${LAN_HOST}:${lan.port}`, lan.port, '/webcam');
    gatewayPort = new URL(/data-gateway="([^"]+)"/.exec(webcam.body)![1]!).port;
    // One file in the drive, so that answers name its links; signed for the URL the phone uses.
    const { body, contentType } = multipart([{ name: 'file', value: 'hello', filename: 'hello.txt' }]);
    const url = `http://${phone()}/api/upload`;
    const authorization = nip98Header(member, url, 'POST', { body });
    const upload = await requestAs(phone(), lan.port, '/api/upload', {
      method: 'POST',
      headers: { 'content-type': contentType, authorization },
      body,
    });
    expect(upload.status).toBe(200);
  }, 60_000);
  afterAll(() => lan?.close());

  it.skipIf(!DEFAULT_PORTS_FREE)(
    'by default the relay and gateway listen at HOST on 7777 and 8080',
    async () => {
      expect(lan.station.embeddedRelay?.url).toBe(`ws://${LAN_HOST}:7777`);
      expect(gatewayPort).toBe('8080');
      const nip11 = await fetch(`http://${LAN_HOST}:7777`, { headers: { accept: 'application/nostr+json' } });
      expect(((await nip11.json()) as { software: string }).software).toBe('uplanet-station');
      expect((await fetch(`http://${LAN_HOST}:8080/ipfs/`)).headers.get('content-security-policy')).toBe(
        'sandbox',
      );
      // Nothing of the station's on 127.0.0.1 (when those ports were free there to begin with).
      if (LOOPBACK_PORTS_FREE) expect(await portsFree('127.0.0.1', [7777, 8080])).toBe(true);
    },
  );

  it('the relay and the gateway answer at HOST', async () => {
    expect(new URL(lan.station.relayUrl).hostname).toBe(LAN_HOST);
    const nip11 = await fetch(`http://${LAN_HOST}:${relayPort}`, {
      headers: { accept: 'application/nostr+json' },
    });
    expect(nip11.status).toBe(200);
    const listing = await get(`/api/drive?npub=${member.npub}`);
    const root = (JSON.parse(listing.body) as { root_cid: string }).root_cid;
    const explorer = await fetch(`http://${LAN_HOST}:${gatewayPort}/ipfs/${root}/`, { redirect: 'manual' });
    expect(explorer.status).toBe(302);
  });

  it('every URL a page or an answer gives is on the host the client used', async () => {
    const answers = await Promise.all([
      get('/', { accept: 'application/json' }),
      get('/nostr'),
      get('/webcam'),
      get(`/api/test-nostr?npub=${member.npub}`),
      get(`/api/drive?npub=${member.npub}`),
      get('/.well-known/nostr/nip96.json'),
      get(`/list/${member.hex}`),
    ]);
    const given: string[] = [];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      given.push(...urlsIn(answer.body));
    }
    const csp = String((await get('/webcam')).headers['content-security-policy']);
    const policyUrls = urlsIn(csp);
    expect(policyUrls).toContain(`ws://${PHONE}:${relayPort}`);
    expect(policyUrls).toContain(`http://${PHONE}:${gatewayPort}`);

    const hosts = new Set(given.map((url) => new URL(url).host));
    expect([...hosts].sort()).toEqual(
      [`${PHONE}:${lan.port}`, `${PHONE}:${relayPort}`, `${PHONE}:${gatewayPort}`].sort(),
    );
    const system = JSON.parse(answers[0]!.body) as Record<string, string>;
    expect(system).toMatchObject({
      uSPOT: `http://${phone()}`,
      myRELAY: `ws://${PHONE}:${relayPort}`,
      myIPFS: `http://${PHONE}:${gatewayPort}`,
    });
    expect(answers[1]!.body).toContain(`data-configured="ws://${PHONE}:${relayPort}"`);
  });

  it('a forwarded host from a peer that is not a trusted proxy changes nothing', async () => {
    const answer = await get('/', { accept: 'application/json', 'x-forwarded-host': 'evil.example' });
    expect(answer.body).not.toContain('evil.example');
    expect(JSON.parse(answer.body)).toMatchObject({ myRELAY: `ws://${PHONE}:${relayPort}` });
  });
});

describe('addresses given behind a proxy', () => {
  /** `GET /` as JSON from an app whose station relay is `relay` (what the bot dials, as station.ts sets it). */
  async function system(
    env: Record<string, string>,
    headers: Record<string, string>,
    options: { remote?: string; relay?: string } = {},
  ) {
    const relay = new RelayClient({ url: options.relay ?? 'ws://127.0.0.1:7777', filters: () => [] });
    const t = await buildTestApp({ env: { HOST: LAN_HOST, ...env }, overrides: { relay } });
    try {
      const res = await t.app.inject({
        url: '/',
        headers: { accept: 'application/json', ...headers },
        remoteAddress: options.remote,
      });
      return res.json() as Record<string, string>;
    } finally {
      await t.close();
    }
  }

  it('PUBLIC_URL wins over the Host of the request', async () => {
    const answer = await system(
      { PUBLIC_URL: 'https://station.example/uplanet' },
      { host: `${PHONE}:54321` },
    );
    expect(answer).toMatchObject({
      uSPOT: 'https://station.example/uplanet',
      myRELAY: 'wss://station.example:7777',
      myIPFS: 'https://station.example:8080',
    });
  });

  it('X-Forwarded-Host and -Proto count from TRUSTED_PROXIES only', async () => {
    const forwarded = {
      host: `${PHONE}:54321`,
      'x-forwarded-host': 'station.lan',
      'x-forwarded-proto': 'https',
    };
    const env = { TRUSTED_PROXIES: '192.0.2.10' };
    const trusted = await system(env, forwarded, { remote: '192.0.2.10' });
    expect(trusted).toMatchObject({ uSPOT: 'https://station.lan', myRELAY: 'wss://station.lan:7777' });
    const untrusted = await system(env, forwarded, { remote: '192.0.2.99' });
    expect(untrusted).toMatchObject({ uSPOT: `http://${PHONE}:54321`, myIPFS: `http://${PHONE}:8080` });
  });

  it('a relay or a gateway elsewhere is given as configured; RELAY_PUBLIC_URLS names the relay', async () => {
    const elsewhere = 'wss://relay.example.org';
    const answer = await system(
      { RELAY_URL: elsewhere, IPFS_GATEWAY: 'https://ipfs.example.org' },
      { host: `${PHONE}:54321` },
      { relay: elsewhere },
    );
    expect(answer).toMatchObject({ myRELAY: elsewhere, myIPFS: 'https://ipfs.example.org' });
    const proxied = await system({ RELAY_PUBLIC_URLS: 'wss://station.example/relay' }, { host: PHONE });
    expect(proxied.myRELAY).toBe('wss://station.example/relay');
  });

  it('a Host that is not a plain host name gives the station’s own address instead', async () => {
    const answer = await system({}, { host: 'evil.example;x=1' });
    expect(JSON.stringify(answer)).not.toContain('evil');
    expect(answer.myRELAY).toBe(`ws://${LAN_HOST}:7777`);
  });
});
