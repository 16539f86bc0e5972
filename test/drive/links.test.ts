import { describe, expect, it } from 'vitest';
import { apiSources, driveLinks } from '../../src/drive/links.js';

const config = (publicUrls: string[] = []) => ({
  auth: { publicUrls },
  port: 54321,
  ipfsGateway: 'http://127.0.0.1:8080/',
});

describe('drive links', () => {
  it('names the first PUBLIC_URL as the API, else the loopback port listened on', () => {
    expect(driveLinks(config(['https://a.example/station/', 'https://b.example']) as never)).toEqual({
      api: 'https://a.example/station',
      gateway: 'http://127.0.0.1:8080',
    });
    expect(driveLinks(config() as never).api).toBe('http://127.0.0.1:54321');
    expect(driveLinks(config() as never, 40123).api).toBe('http://127.0.0.1:40123');
  });

  it('lets an explorer seen on the LAN reach a loopback API by the same host name, and no other', () => {
    expect(apiSources('http://127.0.0.1:54321', '127.0.0.1:8080')).toEqual(['http://127.0.0.1:54321']);
    expect(apiSources('http://127.0.0.1:54321', '192.168.1.20:8080')).toEqual([
      'http://127.0.0.1:54321',
      'http://192.168.1.20:54321',
    ]);
    expect(apiSources('https://station.example/api', 'ipfs.station.example')).toEqual([
      'https://station.example',
    ]);
    // A Host header is the client's to write: nothing that could break out of the policy.
    expect(apiSources('http://127.0.0.1:54321', "evil.example; script-src 'unsafe-inline'")).toEqual([
      'http://127.0.0.1:54321',
    ]);
    expect(apiSources('http://127.0.0.1:54321', undefined)).toEqual(['http://127.0.0.1:54321']);
  });
});
