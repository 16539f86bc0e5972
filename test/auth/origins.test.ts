import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { StationOrigins } from '../../src/auth/origins.js';
import { loadConfig } from '../../src/config/config.js';

/** Which Origin headers are the station's own (CSRF guard of relay-observed logins, CORS of private routes). */
describe('StationOrigins.allowsOrigin', () => {
  const origins = new StationOrigins(
    ['https://station.example/api'],
    ['https://ipfs.station.example', 'https://app.example:8443'],
  );
  const local = 'http://127.0.0.1:54321/api/me';

  it.each([
    ['https://station.example', null, true],
    ['https://ipfs.station.example', null, true],
    ['https://app.example:8443', null, true],
    ['http://127.0.0.1:54321', local, true],
    ['http://localhost:54321', local, true],
    ['http://[::1]:54321', local, true],
  ])('%s is own', (origin, url, expected) => {
    expect(origins.allowsOrigin(origin, url)).toBe(expected);
  });

  it.each([
    ['https://app.example', local],
    ['https://attacker.example', local],
    ['http://127.0.0.1:8081', local],
    ['https://127.0.0.1:54321', local],
    // A registrable host name that merely starts like a loopback address.
    ['http://127.attacker.example:54321', local],
    ['null', local],
    ['http://localhost:54321', null],
    ['http://127.0.0.1:54321/', local],
  ])('%s is foreign', (origin, url) => {
    expect(origins.allowsOrigin(origin, url)).toBe(false);
  });

  it('the embedded gateway reached by another local address (a phone on the LAN) is own; elsewhere not', () => {
    const station = new StationOrigins([], ['http://127.0.0.1:8080']);
    const api = 'http://127.0.0.5:54321/api/upload';
    expect(station.allowsOrigin('http://127.0.0.5:8080', api)).toBe(true);
    expect(station.allowsOrigin('http://127.0.0.5:8081', api)).toBe(false);
    expect(station.allowsOrigin('https://127.0.0.5:8080', api)).toBe(false);
    expect(station.allowsOrigin('http://203.0.113.9:8080', api)).toBe(false);
    expect(station.allowsOrigin('http://127.attacker.example:8080', api)).toBe(false);
  });

  it("the machine's mDNS name is local too: the explorer opened by a phone at <host>.local", () => {
    const station = new StationOrigins([], ['http://127.0.0.1:8080']);
    const name = `${hostname().toLowerCase()}.local`;
    const api = station.requestUrl({ protocol: 'http', host: `${name}:54321`, path: '/api/upload' });
    expect(api).toBe(`http://${name}:54321/api/upload`);
    expect(station.allowsOrigin(`http://${name}:8080`, api)).toBe(true);
    expect(station.allowsOrigin(`http://${name}:8081`, api)).toBe(false);
    expect(station.allowsOrigin('http://other-host.local:8080', api)).toBe(false);
  });

  it('a Host that merely starts like a loopback address is not a station origin either', () => {
    expect(origins.requestUrl({ protocol: 'http', host: '127.attacker.example', path: '/' })).toBeNull();
    expect(origins.requestUrl({ protocol: 'http', host: '127.0.0.7:80', path: '/x' })).toBe(
      'http://127.0.0.7/x',
    );
  });
});

describe('CORS_ORIGINS', () => {
  it('keeps origins and refuses anything that is not one', async () => {
    const config = await loadConfig({
      HOME: '/tmp',
      CORS_ORIGINS: 'https://a.example, http://b.example:8080/',
    });
    expect(config.auth.corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    expect((await loadConfig({ HOME: '/tmp' })).auth.corsOrigins).toEqual([]);
    for (const bad of ['https://a.example/app', 'ftp://a.example', 'not a url', 'https://a.example/?x=1'])
      await expect(loadConfig({ HOME: '/tmp', CORS_ORIGINS: bad })).rejects.toMatchObject({
        variable: 'CORS_ORIGINS',
      });
  });
});
