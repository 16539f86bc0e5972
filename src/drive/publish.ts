import type { Logger } from 'pino';
import { within } from '../fs/paths.js';
import type { ManifestEntry } from './manifest.js';
import type { DriveChange } from './drive-state.js';
import type { DriveLinks } from './links.js';
import type { Tenure } from './lock.js';
import { commitChange, loadDrive, type LoadedDrive, type Owner } from './manifest-log.js';
import { replayLegacyJournal, settleMoves } from './journal.js';
import { storePublishedManifest } from './published-file.js';
import type { PublishedSource } from './published.js';
import { buildDriveRoot, wrapFile } from './root.js';
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
  /** The holding of the drive lock this publication runs in (see lock.ts). */
  tenure: Tenure;
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
  let files: ManifestEntry[] | undefined;
  const published: PublishedSource = {
    owner_hex_pubkey: manifest.owner_hex_pubkey,
    // Listed only by what is built from every file (a first publication, a removal, an unedited folder):
    // copying the list for every upload made its cost grow with the drive.
    get files() {
      return (files ??= drive.state.filesAfter(change));
    },
  };
  const links = context.links();
  const manifestFile = storePublishedManifest(context.store, context.driveDir, {
    previousRoot: previous,
    drive: published,
    totals: drive.state.totalsAfter(change),
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
  await commitChange(context.manifestPath, drive, { ...change, tree }, context.tenure);
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
export async function loadSettled(context: PublishContext, owner: Owner): Promise<LoadedDrive> {
  const drive = await loadDrive(context.manifestPath, owner, context.updatedAt, context.tenure);
  const listed = (path: string) => drive.state.entry(path) !== undefined;
  const moved = drive.moving ? await settleMoves(drive.moving, listed) : [];
  const recovered = (await Promise.all(moved.map((entry) => withContent(context, entry)))).filter(
    (entry) => entry !== null,
  );
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

/**
 * A file the crash left in its folder is durable (staging flushed it), but its blocks and wrapper may not be:
 * the store commits them with the publication that never came (store/pending-writes.ts). Missing, they are
 * imported again from the file, which gives the same CIDs; a file that no longer gives them is not listed.
 */
async function withContent(context: PublishContext, entry: ManifestEntry): Promise<ManifestEntry | null> {
  const wrapper = entry.ipfs_link.split('/')[0]!;
  const held = await context.store.stat(wrapper).then(
    () => true,
    () => false,
  );
  if (held) {
    await context.store.pin(wrapper);
    return entry;
  }
  const path = within(context.driveDir, entry.category, entry.name);
  const added = await context.store.addFile(path, { pin: false }).catch(() => null);
  if (added?.cid !== entry.cid) {
    context.logger.warn(
      { path: entry.path },
      'drive: an interrupted upload’s file no longer matches its entry',
    );
    return null;
  }
  const rewrapped = await wrapFile(context.store, {
    name: entry.name,
    cid: added.cid,
    dagSize: added.dagSize,
  });
  await context.store.pin(rewrapped);
  return rewrapped === wrapper ? entry : { ...entry, ipfs_link: `${rewrapped}/${entry.name}` };
}
