import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const base = { HOME: '/home/station' };

describe('loadConfig', () => {
  it('applies the contract defaults', async () => {
    const config = await loadConfig(base);
    expect(config).toMatchObject({
      port: 54321,
      host: '0.0.0.0',
      dataRoot: '/home/station/.zen/game',
      tmpDir: '/home/station/.zen/tmp',
      relayUrl: 'ws://127.0.0.1:7777',
      embeddedRelay: 'auto',
      ipfsApi: null,
      ipfsGateway: 'http://127.0.0.1:8080',
      squidUrls: ['https://squid.g1.gyroi.de/v1/graphql'],
      salesMarker: 'ZENCOIN',
      scraperAt: { hour: 20, minute: 12 },
      authMaxAgeSeconds: 86_400,
      authRequireProof: false,
      rateLimit: { max: 100, windowSeconds: 60 },
      trustedIps: ['127.0.0.1', '::1'],
      trustedProxies: [],
      paymentCommand: null,
      driveQuotaBytes: 650 * 1024 * 1024,
    });
    expect(config.uplanetName).toBe('0'.repeat(64));
    expect(config.wallets.distribution).toBe('g1LBF94vApBWxJExucfEQyTRkAN1eFEnD5EFA2ZN8J1PpcdZ5');
  });

  it('reads every kind of value', async () => {
    const config = await loadConfig({
      ...base,
      PORT: '8000',
      DATA_ROOT: '~/data',
      EMBEDDED_RELAY: 'OFF',
      SQUID_URL: 'http://127.0.0.1:4350/v1/graphql/',
      SQUID_FALLBACKS: 'http://a.example/graphql, http://b.example/graphql',
      SCRAPER_AT: '06:05',
      AUTH_REQUIRE_PROOF: 'yes',
      TRUSTED_IPS: '10.0.0.0/8,::1',
      UPLANETG1PUB: 'g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7',
      PORT_UNUSED: 'x',
    });
    expect(config.port).toBe(8000);
    expect(config.dataRoot).toBe('/home/station/data');
    expect(config.embeddedRelay).toBe('off');
    expect(config.squidUrls).toEqual([
      'http://127.0.0.1:4350/v1/graphql',
      'http://a.example/graphql',
      'http://b.example/graphql',
    ]);
    expect(config.scraperAt).toEqual({ hour: 6, minute: 5 });
    expect(config.authRequireProof).toBe(true);
    expect(config.trustedIps).toEqual(['10.0.0.0/8', '::1']);
    expect(config.wallets.distribution).toBe('g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7');
  });

  it('limits heap and anonymous memory to 1024 MB unless MEMORY_LIMIT_MB says otherwise (0: no limit)', async () => {
    expect((await loadConfig(base)).memoryLimitBytes).toBe(1024 * 1024 * 1024);
    expect((await loadConfig({ ...base, MEMORY_LIMIT_MB: '1536' })).memoryLimitBytes).toBe(
      1536 * 1024 * 1024,
    );
    expect((await loadConfig({ ...base, MEMORY_LIMIT_MB: '0' })).memoryLimitBytes).toBe(0);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATA_ROOT', 'relative/path'],
    ['TMP_DIR', './tmp'],
    ['RELAY_URL', 'http://127.0.0.1:7777'],
    ['EMBEDDED_RELAY', 'maybe'],
    ['IPFS_API', 'not a url'],
    ['SQUID_FALLBACKS', 'ftp://x'],
    ['SCRAPER_AT', '25:00'],
    ['AUTH_MAX_AGE', '1.5'],
    ['AUTH_REQUIRE_PROOF', 'perhaps'],
    ['RATE_LIMIT_MAX', '0'],
    ['TRUSTED_IPS', '10.0.0.0/33'],
    ['TRUSTED_PROXIES', 'proxy.example'],
    ['UPLANETG1PUB', 'g1notanaddress'],
    ['CAPTAINEMAIL', 'captain'],
    ['SMTP_URL', 'http://mail'],
    ['MEMORY_LIMIT_MB', '1G'],
    ['MEMORY_LIMIT_MB', '-1'],
  ])('stops on %s=%j with a message naming the variable', async (name, value) => {
    const error = await loadConfig({ ...base, [name]: value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(name);
    expect((error as Error).message).toContain(name);
  });
});
