import type { Logger } from 'pino';
import type { DriveChange } from './drive-state.js';
import type { DriveLinks } from './links.js';
import type { Tenure } from './lock.js';
import { commitChange, loadDrive, type LoadedDrive, type Owner } from './manifest-log.js';
import { replayLegacyJournal, settleMoves } from './journal.js';
import { storePublishedManifest } from './published-file.js';
import { buildDriveRoot } from './root.js';
import type { ContentStore } from './store/types.js';

/** What the drive's writers ask of the content store. */
export type DriveStore = Pick<
  ContentStore,
  'add' | 'addFile' | 'cat' | 'stat' | 'putBlock' | 'pin' | 'unpin' | 'flush'
>;

/** What a publication needs: the store, where the drive is, and what its published manifest names. */
export interface PublishContext {
  store: DriveStore;
  logger: Pick<Logger, 'warn'>;
  links: () => DriveLinks;
  driveDir: string;
  manifestPath: string;
  /** The time the new tree records (`updated_at`). */
  updatedAt: string;
  /**
   * Drives whose journal of earlier versions this process already replayed or found empty: no process of
   * this version writes one, so each drive is looked at once (absent: every time).
   */
  legacyJournalsDone?: Pick<Set<string>, 'has' | 'add'>;
}

/**
 * Builds the published tree of the drive once `change` is made (only the changed categories' folders,
 * unless `rebuild`), pins it, makes the change durable (manifest-log.ts), then lets the previous tree go.
 */
export async function publishChange(
  context: PublishContext,
  drive: LoadedDrive,
  change: Omit<DriveChange, 'tree'>,
  options: { rebuild?: boolean } = {},
): Promise<string> {
  const { manifest } = drive.state;
  const previous = manifest.root_cid;
  const removed = (change.remove ?? []).map((p) => drive.state.entry(p)!);
  const touched = [...(change.add ?? []), ...removed];
  const rebuild = options.rebuild || !previous;
  const published = { owner_hex_pubkey: manifest.owner_hex_pubkey, files: drive.state.filesAfter(change) };
  const links = context.links();
  const manifestFile = storePublishedManifest(context.store, context.driveDir, {
    previousRoot: previous,
    drive: published,
    appended: change.remove?.length ? null : (change.add ?? []),
    links,
  });
  const root = await buildDriveRoot(context.store, published, {
    links,
    manifest: manifestFile,
    change: rebuild
      ? undefined
      : {
          changed: [...new Set(touched.map((f) => f.category))],
          previous: { folders: manifest.folders, folderDagSizes: manifest.folder_dag_sizes },
          files: { added: change.add ?? [], removed },
        },
  });
  (await manifestFile).published(root.rootCid);
  if (root.rootCid !== previous) await context.store.pin(root.rootCid);
  // The files' blocks, their wrappers and this tree, all durable before the manifest points at them.
  await context.store.flush();
  const tree = {
    root_cid: root.rootCid,
    folders: root.folders,
    folder_dag_sizes: root.folderDagSizes,
    updated_at: context.updatedAt,
  };
  await commitChange(context.manifestPath, drive, { ...change, tree });
  if (previous && previous !== root.rootCid) await unpinQuietly(context, previous);
  return root.rootCid;
}

export async function unpinQuietly(
  context: Pick<PublishContext, 'store' | 'logger'>,
  cid: string,
): Promise<void> {
  await context.store.unpin(cid).catch((error: unknown) => {
    // The manifest is already right; a stale pin only keeps content a little longer.
    context.logger.warn({ err: error, cid }, 'drive: unpin failed');
  });
}

/**
 * The drive as its log and checkpoint leave it, with uploads a crash interrupted settled first: files a batch
 * had moved in before its change was logged (noteMoving), and earlier versions' journal.
 */
export async function loadSettled(
  context: PublishContext,
  owner: Owner,
  tenure?: Tenure,
): Promise<LoadedDrive> {
  const drive = await loadDrive(context.manifestPath, owner, context.updatedAt, tenure);
  const listed = (path: string) => drive.state.entry(path) !== undefined;
  const recovered = drive.moving ? await settleMoves(drive.moving, listed) : [];
  drive.moving = null;
  // Earlier versions' journal: a missing folder costs one failed readdir.
  const legacy = !context.legacyJournalsDone?.has(context.driveDir);
  if (legacy) recovered.push(...(await replayLegacyJournal(context.driveDir, listed)));
  if (recovered.length > 0) {
    context.logger.warn(
      { email: owner.email, files: recovered.length },
      'drive: recovered interrupted uploads',
    );
    await publishChange(context, drive, { add: recovered }, { rebuild: true });
  }
  if (legacy) context.legacyJournalsDone?.add(context.driveDir);
  return drive;
}
