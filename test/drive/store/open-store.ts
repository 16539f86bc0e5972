import { openDriveDb, type DriveDb } from '../../../src/drive/db/drive-db.js';
import { EmbeddedStore } from '../../../src/drive/store/embedded.js';

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
