import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { settled } from './lmdb-failure.js';

/**
 * A relay-observed login (kind 22242), kept so it survives a restart (the event itself is ephemeral), bound to
 * the client address that asked for its challenge ('*' for a legacy login without one).
 */
export interface ObservedClaim {
  id: string;
  pubkey: string;
  address: string;
  createdAt: number;
}

/** A NIP-42 challenge issued by `GET /api/nip42/challenge`: for one key, asked from one client address. */
export interface IssuedChallenge {
  pubkey: string;
  address: string;
  issuedAt: number;
  expiresAt: number;
}

type Db<V, K extends Key> = Pick<
  Database<V, K>,
  'get' | 'put' | 'remove' | 'getRange' | 'transaction' | 'ifNoExists' | 'getKeysCount'
>;

export interface StationDb {
  /** [pubkey, address] → newest accepted kind-22242 claim. */
  claims: Db<ObservedClaim, [string, string]>;
  /** [address, pubkey] → created_at of that key's newest login from that address. */
  claimsByAddress: Db<number, [string, string]>;
  /** challenge → the key and address it was issued to. */
  challenges: Db<IssuedChallenge, string>;
  /** [address, issuedAt, challenge]: bounds the challenges pending per address. */
  challengesByAddress: Db<true, [string, number, string]>;
  /** NIP-98 event id → unix seconds until which it is remembered (each id is accepted once). */
  replay: Db<number, string>;
  /** Small named values: the bot's resume point per relay. */
  meta: Db<number, string>;
  /**
   * Empties the blob index versions before the drive index kept here (`blobs`, `blobs-by-owner`,
   * `blob-holders`): the drive index holds it now (src/drive/db/drive-db.ts `holders`).
   */
  retireBlobIndex(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A database whose writes reject, when their commit fails, with an error carrying the file system's code
 * (ENOSPC, EIO: src/state/lmdb-failure.ts), so that a request answers 507 or 503 and never leaves lmdb-js's
 * inner `commitError` promise rejected unhandled, which ends the process. Reads go straight to lmdb-js.
 */
function guarded<V, K extends Key>(db: Database<V, K>, path: string): Db<V, K> {
  const settle = <T>(write: Promise<T>) => settled(write, path, 'station database');
  return {
    get: (key, options) => db.get(key, options),
    getRange: (options) => db.getRange(options),
    getKeysCount: (options) => db.getKeysCount(options),
    put: ((key: K, value: V) => settle(db.put(key, value))) as Db<V, K>['put'],
    remove: ((key: K) => settle(db.remove(key))) as Db<V, K>['remove'],
    transaction: (action) => settle(db.transaction(action)),
    ifNoExists: (key, action) => settle(db.ifNoExists(key, action)),
  };
}

/**
 * The station's own small state (not the relay's events), in LMDB under `DATA_ROOT/station/state`: every
 * worker of a PM2 cluster and the CLI open the same environment, writes are atomic across processes, and
 * reads are synchronous memory-map reads.
 */
export async function openStationDb(dataRoot: string): Promise<StationDb> {
  const path = join(dataRoot, 'station', 'state');
  await mkdir(path, { recursive: true, mode: 0o700 });
  // Same settings as the relay store (docs in src/relay/store/lmdb-event-store.ts): a failed commit must
  // reject the write it belongs to, never an orphan promise.
  const root: RootDatabase = open({ path, compression: false, eventTurnBatching: false });
  const db = <V, K extends Key>(name: string) => guarded(root.openDB<V, K>({ name }), path);
  return {
    claims: db<ObservedClaim, [string, string]>('auth-claims-v2'),
    claimsByAddress: db<number, [string, string]>('auth-claims-by-address'),
    challenges: db<IssuedChallenge, string>('challenges'),
    challengesByAddress: db<true, [string, number, string]>('challenges-by-address'),
    replay: db<number, string>('nip98-replay'),
    meta: db<number, string>('meta'),
    retireBlobIndex: async () => {
      for (const name of ['blobs', 'blobs-by-owner', 'blob-holders'])
        await settled(root.openDB({ name }).clearAsync(), path, 'station database');
    },
    close: () => root.close(),
  };
}
