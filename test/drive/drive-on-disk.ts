import { join } from 'node:path';
import { pino } from 'pino';
import { DriveService } from '../../src/drive/service.js';
import type { LockLease } from '../../src/fs/file-lock.js';
import { EmbeddedStore } from '../../src/drive/store/embedded.js';
import { DEFAULT_LINKS } from './drive-fixture.js';

/**
 * A drive service on `root` laid out as a station's DATA_ROOT (embedded store in `ipfs/`, users in `nostr/`,
 * staging in `.drive-staging/`), as a separate process (a writer in the tests, a benchmark) opens it.
 */
export async function openDriveAt(
  root: string,
  quotaBytes = 1024 ** 4,
  lockLease?: LockLease,
  storeOptions?: Parameters<typeof EmbeddedStore.open>[1],
): Promise<{ store: EmbeddedStore; drive: DriveService }> {
  const store = await EmbeddedStore.open(join(root, 'ipfs'), storeOptions);
  const drive = new DriveService({
    store,
    users: { dirFor: (email: string) => join(root, 'nostr', email) },
    clock: { now: () => Date.now() },
    links: () => DEFAULT_LINKS,
    logger: pino({ level: 'silent' }),
    quotaBytes,
    stagingDir: join(root, '.drive-staging'),
    ...(lockLease ? { lockLease } : {}),
  });
  return { store, drive };
}
