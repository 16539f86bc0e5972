import type { EventTemplate, VerifiedEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import { openLocalEvents } from './local-store.js';
import { Sister, type SisterHealth } from './sister.js';

export type { SisterHealth } from './sister.js';

export interface SwarmOptions {
  sisters: readonly string[];
  intervalSeconds: number;
  /** The station's own relay (its real URL, port resolved) and the path of its store. */
  localUrl: string;
  storePath: string;
  sign: (template: EventTemplate) => Promise<VerifiedEvent>;
  now: () => number;
  logger: Logger;
}

export interface Swarm {
  health(): SisterHealth[];
  close(): Promise<void>;
}

/** Syncs the station's relay with each sister's (SWARM_RELAYS); nothing runs without sisters. */
export function startSwarm(options: SwarmOptions): Swarm {
  if (options.sisters.length === 0) return { health: () => [], close: async () => undefined };
  const local = openLocalEvents(options.storePath);
  const sisters = options.sisters.map(
    (url) =>
      new Sister({
        url,
        localUrl: options.localUrl,
        local,
        intervalMs: options.intervalSeconds * 1000,
        sign: options.sign,
        now: options.now,
        logger: options.logger,
      }),
  );
  for (const sister of sisters) sister.start();
  options.logger.info({ sisters: options.sisters }, 'swarm: syncing with sister relays');
  return {
    health: () => sisters.map((sister) => sister.health()),
    close: async () => {
      for (const sister of sisters) sister.stop();
      await local.close();
    },
  };
}
