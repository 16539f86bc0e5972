import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';

/** A relay-observed login (kind 22242), kept so it survives a restart: the event itself is ephemeral. */
export interface ObservedClaim {
  id: string;
  pubkey: string;
  createdAt: number;
}

export interface StationDb {
  /** pubkey → newest accepted kind-22242 claim. */
  claims: Pick<Database<ObservedClaim, string>, 'get' | 'put' | 'remove' | 'getRange'>;
  /** Small named values: the bot's resume point per relay. */
  meta: Pick<Database<number, string>, 'get' | 'put'>;
  close(): Promise<void>;
}

/**
 * The station's own small state (not the relay's events), in LMDB under `DATA_ROOT/station/state`: every
 * worker of a PM2 cluster and the CLI open the same environment, and reads are synchronous memory-map reads.
 */
export async function openStationDb(dataRoot: string): Promise<StationDb> {
  const path = join(dataRoot, 'station', 'state');
  await mkdir(path, { recursive: true, mode: 0o700 });
  const root: RootDatabase = open({ path, compression: false });
  const claims = root.openDB<ObservedClaim, string>({ name: 'auth-claims' });
  const meta = root.openDB<number, string>({ name: 'meta' });
  return {
    claims,
    meta,
    close: () => root.close(),
  };
}
