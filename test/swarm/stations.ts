import { join } from 'node:path';
import type { Filter, NostrEvent } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import { loadStationKey } from '../../src/identity/station-key.js';
import { signerFromSecretKey } from '../../streams/relay-client.js';
import { loopbackEnv, startService, type ServiceProcess } from '../e2e/service-process.js';
import { waitFor } from '../helpers/relay.js';
import type { SisterHealth } from '../../src/swarm/swarm.js';

export interface TestStation {
  home: string;
  service: ServiceProcess;
  url: string;
  relayUrl: string;
}

interface HealthAnswer {
  relays: { url: string; role: string }[];
  swarm: SisterHealth[];
}

export async function health(url: string): Promise<HealthAnswer> {
  return (await (await fetch(`${url}/health`)).json()) as HealthAnswer;
}

/** A whole station (src/main.ts) on loopback, `env` added (SWARM_RELAYS, a fixed RELAY_URL…). */
export async function startTestStation(home: string, env: Record<string, string> = {}): Promise<TestStation> {
  const service = startService({ ...loopbackEnv(home), LOG_LEVEL: 'info', ...env });
  const url = await service.listening;
  const relayUrl = (await health(url)).relays.find((relay) => relay.role === 'station')!.url;
  return { home, service, url, relayUrl };
}

export async function stopTestStation(station: TestStation): Promise<void> {
  if (station.service.child.exitCode !== null) return;
  station.service.child.kill('SIGTERM');
  await station.service.exited;
}

/**
 * The events of `filter` stored at a station's relay, read as that station (authenticated with its key, so a
 * kind 22242 would be listed too).
 */
export async function storedAt(station: TestStation, filter: Filter): Promise<NostrEvent[]> {
  const key = await loadStationKey(join(station.home, '.zen', 'game'));
  const relay = await Relay.connect(station.relayUrl);
  try {
    await waitFor(async () =>
      relay.auth(signerFromSecretKey(key.secretKey)).then(
        () => true,
        () => false,
      ),
    );
    return await new Promise<NostrEvent[]>((resolve) => {
      const events: NostrEvent[] = [];
      const sub = relay.subscribe([{ ...filter, limit: 50_000 }], {
        onevent: (event) => events.push(event),
        oneose: () => {
          sub.close();
          resolve(events);
        },
      });
    });
  } finally {
    relay.close();
  }
}
