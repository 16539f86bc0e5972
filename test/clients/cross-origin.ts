import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { keyFromSecret, type TestKey } from '../helpers/nostr.js';
import { auth22242 } from '../helpers/relay-station.js';
import { deadUrl } from '../economy/squid-server.js';

/** A site on another loopback port (another origin) serving one blank page. */
export interface OtherSite {
  origin: string;
  server: Server;
}

async function otherSite(): Promise<OtherSite> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export interface CrossOrigin {
  t: TestApp;
  /** The station's own origin, as the browser reaches it. */
  api: string;
  /** Listed in CORS_ORIGINS. */
  allowed: OtherSite;
  /** Nobody's friend. */
  foreign: OtherSite;
  /** Registered, and logged in on the relay from 127.0.0.1 (the browser's address), the pages' way. */
  alice: TestKey;
  close(): Promise<void>;
}

/**
 * The station on a loopback port with PUBLIC_URL, a gateway on its own host and one CORS_ORIGINS site, and
 * two other sites on loopback ports: one listed, one not.
 */
export async function startCrossOrigin(): Promise<CrossOrigin> {
  const [allowed, foreign] = await Promise.all([otherSite(), otherSite()]);
  const t = await buildTestApp({
    env: {
      CORS_ORIGINS: allowed.origin,
      PUBLIC_URL: 'https://station.example',
      IPFS_GATEWAY: 'https://ipfs.station.example',
      SQUID_URL: await deadUrl(),
    },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const created = await t.deps.users.create({ email: 'alice@example.org', gps: { lat: 43.6, lon: 1.44 } });
  const alice = keyFromSecret(created.keys.nostr.secretKey);
  const { challenge } = (
    await t.app.inject({ url: `/api/nip42/challenge?npub=${alice.npub}`, remoteAddress: '127.0.0.1' })
  ).json() as { challenge: string };
  const login = await t.deps.auth.observed.ingest(auth22242(alice, { tags: [['challenge', challenge]] }));
  expect(login).toEqual({ accepted: true });
  const stop = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    t,
    api,
    allowed,
    foreign,
    alice,
    close: async () => {
      await t.close();
      await Promise.all([stop(allowed.server), stop(foreign.server)]);
    },
  };
}
