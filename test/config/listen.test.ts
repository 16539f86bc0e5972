import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';

const base = { HOME: '/home/station' };
const addresses = async (env: Record<string, string>) => {
  const config = await loadConfig({ ...base, ...env });
  return { relayUrl: config.relayUrl, ipfsGateway: config.ipfsGateway, listen: config.listen };
};

/** src/config/listen.ts: the embedded relay and gateway listen where the API does unless told otherwise. */
describe('where the embedded relay and gateway listen', () => {
  it('by default at HOST, dialled on loopback when HOST is every interface (URLs as before)', async () => {
    expect(await addresses({})).toEqual({
      relayUrl: 'ws://127.0.0.1:7777',
      ipfsGateway: 'http://127.0.0.1:8080',
      listen: { relay: '0.0.0.0', gateway: '0.0.0.0', relayIsDerived: true },
    });
    expect(await addresses({ HOST: '127.0.0.2' })).toEqual({
      relayUrl: 'ws://127.0.0.2:7777',
      ipfsGateway: 'http://127.0.0.2:8080',
      listen: { relay: '127.0.0.2', gateway: '127.0.0.2', relayIsDerived: true },
    });
    expect(await addresses({ HOST: '::' })).toMatchObject({
      relayUrl: 'ws://[::1]:7777',
      listen: { relay: '::', gateway: '::' },
    });
    expect((await addresses({ HOST: 'fd00::5' })).ipfsGateway).toBe('http://[fd00::5]:8080');
  });

  it('an explicit RELAY_URL or loopback IPFS_GATEWAY keeps the host it names, as before', async () => {
    expect(
      await addresses({ RELAY_URL: 'ws://127.0.0.1:7800', IPFS_GATEWAY: 'http://localhost:8081' }),
    ).toEqual({
      relayUrl: 'ws://127.0.0.1:7800',
      ipfsGateway: 'http://localhost:8081',
      listen: { relay: '127.0.0.1', gateway: 'localhost', relayIsDerived: false },
    });
    // A gateway named by a public name is reached through it; the embedded one listens on HOST.
    expect((await addresses({ HOST: '10.0.0.5', IPFS_GATEWAY: 'http://ipfs.example.org' })).listen).toEqual({
      relay: '10.0.0.5',
      gateway: '10.0.0.5',
      relayIsDerived: true,
    });
    expect((await addresses({ RELAY_URL: 'ws://[::1]:7777' })).listen.relay).toBe('::1');
  });
});
