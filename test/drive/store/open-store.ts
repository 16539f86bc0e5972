import { join } from 'node:path';
import { openDriveDb, type DriveDb } from '../../../src/drive/db/drive-db.js';
import { encodeDirectory } from '../../../src/drive/store/dag.js';
import { EmbeddedStore } from '../../../src/drive/store/embedded.js';
import { startGateway, type Gateway, type GatewayOptions } from '../../../src/drive/store/gateway.js';
import { tempDir } from '../../helpers/temp.js';

export interface OpenedStore {
  db: DriveDb;
  store: EmbeddedStore;
  /** Closes the store, then the environment it was opened on (services.ts does the same). */
  close(): Promise<void>;
}

/**
 * The embedded store on `dir` (a station's `DATA_ROOT/ipfs-store`) as drive/services.ts opens it: the drive
 * index's environment first, then the store over it. Opened twice on one `dir`, it is what two processes
 * sharing DATA_ROOT see.
 */
export async function openEmbedded(dir: string): Promise<OpenedStore> {
  const db = await openDriveDb(dir);
  const store = await EmbeddedStore.open(dir, db);
  return {
    db,
    store,
    close: async () => {
      await store.close();
      await db.close();
    },
  };
}

/** An embedded store in a fresh temp folder, served by a read-only gateway on loopback. */
export interface ServedStore {
  store: EmbeddedStore;
  gateway: Gateway;
  /** A request to the gateway. */
  get(path: string, headers?: Record<string, string>, method?: string): Promise<Response>;
  /** A UnixFS folder of `entries` (already in the store), stored: its CID. */
  folder(entries: { name: string; cid: string; dagSize: number }[]): Promise<string>;
  close(): Promise<void>;
}

export async function serveEmbedded(
  prefix: string,
  options: Omit<GatewayOptions, 'host' | 'port'> = {},
): Promise<ServedStore> {
  const dir = await tempDir(prefix);
  const opened = await openEmbedded(join(dir.path, 'ipfs-store'));
  const { store } = opened;
  const gateway = await startGateway(store, { host: '127.0.0.1', port: 0, ...options });
  return {
    store,
    gateway,
    get: (path, headers = {}, method = 'GET') => fetch(`${gateway.url}${path}`, { headers, method }),
    folder: async (entries) => store.putBlock((await encodeDirectory(entries)).bytes),
    close: async () => {
      await gateway.close();
      await opened.close();
      await dir.cleanup();
    },
  };
}
