import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { startDriveGateway } from '../../src/drive/plugin.js';
import type { Gateway } from '../../src/drive/store/gateway.js';
import type { TestKey } from '../helpers/nostr.js';
import {
  loginOnRelay,
  register,
  startRelayStation,
  stopRelayStation,
  type RelayStation,
} from '../helpers/relay-station.js';

/**
 * What the UPlanet upload pages talk to: the API on a loopback port, a real relay the bot listens to (their
 * login is a kind 22242 published there), and the embedded gateway they build file links on.
 */
export interface UploadStation {
  station: RelayStation;
  api: string;
  gateway: Gateway;
  /**
   * A registered member, logged in on the relay (the pages' NIP-42 flow) from 127.0.0.1, or from `address`:
   * requests then carry `X-Forwarded-For: <address>` (the test is the trusted proxy), as one person's device.
   */
  member(email: string, address?: string): Promise<TestKey>;
  close(): Promise<void>;
}

export async function startUploadStation(): Promise<UploadStation> {
  const station = await startRelayStation({
    IPFS_GATEWAY: 'http://127.0.0.1:0',
    TRUSTED_PROXIES: '127.0.0.1',
  });
  await station.t.app.listen({ host: '127.0.0.1', port: 0 });
  const api = `http://127.0.0.1:${(station.t.app.server.address() as AddressInfo).port}`;
  const gateway = await startDriveGateway(
    station.t.config,
    station.t.app.contentStore,
    pino({ level: 'silent' }),
  );
  if (!gateway) throw new Error('the embedded gateway did not start');
  return {
    station,
    api,
    gateway,
    member: async (email, address) => {
      const key = await register(station.t, email);
      await loginOnRelay(station, key, address);
      return key;
    },
    close: async () => {
      await gateway.close();
      await stopRelayStation(station);
    },
  };
}
