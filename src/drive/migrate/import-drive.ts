import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { localTimestamp } from '../../clock.js';
import { within } from '../../fs/paths.js';
import type { UserRecord } from '../../identity/user-files.js';
import { DRIVE_CATEGORIES, fileTypeFor, mimeTypeFor, type DriveCategory } from '../categories.js';
import { BlockBatch } from '../db/block-batch.js';
import { handled } from '../db/commit-error.js';
import { commitChange, wrapperOfLink, type DriveCommit } from '../db/commit.js';
import type { DriveDb } from '../db/drive-db.js';
import type { DriveReads } from '../db/reads.js';
import type { EntryRecord, FolderRef } from '../db/records.js';
import type { DriveLinks } from '../links.js';
import type { ManifestEntry } from '../manifest.js';
import { publishedText } from '../published.js';
import { encodeDirectory } from '../store/dag.js';
import type { ContentStore } from '../store/types.js';
import { encodeRoot } from '../tree/drive-root.js';
import { buildFolder } from '../tree/folder.js';
import { buildManifest } from '../tree/manifest-tree.js';
import { changeNodes, type NodeStore } from '../tree/nodes.js';
import { folderFiles, type LegacyDrive } from './legacy-drive.js';

export interface ImportDeps {
  db: DriveDb;
  reads: DriveReads;
  store: Pick<ContentStore, 'kind' | 'addFile' | 'holds' | 'getBlock' | 'putBlock' | 'release'>;
  links: () => DriveLinks;
  logger: Pick<Logger, 'warn' | 'info'>;
  now: () => number;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** An entry for a file found in its folder and in no list (a drive whose log lost a line). */
async function recoveredEntry(
  deps: ImportDeps,
  batch: BlockBatch,
  driveDir: string,
  category: DriveCategory,
  name: string,
) {
  const path = within(driveDir, category, name);
  const info = await stat(path);
  const added = await deps.store.addFile(path, { pin: false, size: info.size, into: batch });
  return {
    path: `${category}/${name}`,
    name,
    category,
    file_type: fileTypeFor(category),
    mime_type: mimeTypeFor(name),
    size: info.size,
    sha256: await sha256Of(path),
    cid: added.cid,
    dag_size: added.dagSize,
    ipfs_link: '',
    added_at: localTimestamp(info.mtimeMs),
    source: { kind: 'recovered' },
  } satisfies ManifestEntry;
}

/**
 * An entry whose content the store holds whole, or holds again once its folder's file is imported (the same
 * bytes give the same CID); null, with a warning, when neither has it. Its wrapper is built again (a crash
 * could lose it) and its link follows.
 */
async function verified(
  deps: ImportDeps,
  nodes: NodeStore,
  batch: BlockBatch,
  driveDir: string,
  entry: ManifestEntry,
) {
  if (!(await deps.store.holds(entry.cid))) {
    const path = within(driveDir, entry.category, entry.name);
    const again = (await exists(path)) ? await deps.store.addFile(path, { pin: false, into: batch }) : null;
    if (again?.cid !== entry.cid) {
      deps.logger.warn(
        { path: entry.path, cid: entry.cid },
        'drive import: a file’s content is gone; not listed',
      );
      return null;
    }
  }
  const wrapper = await encodeDirectory([{ name: entry.name, cid: entry.cid, dagSize: entry.dag_size }]);
  await nodes.putKnown(wrapper.cid, wrapper.bytes);
  return { ...entry, ipfs_link: `${wrapper.cid}/${entry.name}` };
}

/**
 * Imports a drive of an earlier version into the index in one transaction: its list (checkpoint and log), the
 * files interrupted uploads left in its folders, and, when its log lost a line, its folders as the truth
 * (files listed but gone are dropped, files there but unlisted are imported); every file's content verified;
 * its media records; a new tree built whole. False when another process imported it first.
 */
export async function importLegacyDrive(
  deps: ImportDeps,
  user: Pick<UserRecord, 'email' | 'hex'>,
  driveDir: string,
  legacy: LegacyDrive,
): Promise<{ imported: boolean; files: number; recovered: number; dropped: number }> {
  const batch = new BlockBatch();
  const nodes = changeNodes(deps.store, batch);
  let candidates = [...legacy.entries, ...legacy.interrupted];
  let recovered = legacy.interrupted.length;
  if (legacy.gap) {
    const onDisk = await folderFiles(driveDir);
    const present = new Set(onDisk.map((f) => `${f.category}/${f.name}`));
    candidates = candidates.filter((entry) => present.has(entry.path));
    const listed = new Set(candidates.map((entry) => entry.path));
    for (const file of onDisk.filter((f) => !listed.has(`${f.category}/${f.name}`))) {
      candidates.push(await recoveredEntry(deps, batch, driveDir, file.category, file.name));
      recovered += 1;
    }
  }
  const entries: EntryRecord[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (seen.has(candidate.path)) continue;
    const entry = await verified(deps, nodes, batch, driveDir, candidate);
    if (!entry) continue;
    seen.add(entry.path);
    entries.push({ ...entry, seq: entries.length });
  }
  const folders = {} as Record<DriveCategory, FolderRef>;
  for (const category of DRIVE_CATEGORIES) {
    const links = entries
      .filter((e) => e.category === category)
      .map((e) => ({ name: e.name, cid: e.cid, dagSize: e.dag_size }));
    folders[category] = await buildFolder(nodes, links);
  }
  const totals = { files: entries.length, bytes: entries.reduce((sum, e) => sum + e.size, 0) };
  const manifest = await buildManifest(nodes, {
    head: publishedText.head({ owner_hex_pubkey: user.hex }, deps.links()),
    line: publishedText.line,
    tail: publishedText.tail,
    entriesBetween: (from, to) => entries.filter((e) => e.seq >= from && e.seq < to),
    seqRange: () => (entries.length > 0 ? { min: 0, max: entries.length - 1 } : null),
    totals,
    row: () => undefined,
  });
  const root = await encodeRoot(nodes, folders, manifest.file);
  const wrappers = new Set(entries.map((e) => wrapperOfLink(e.ipfs_link)));
  const media = [...legacy.media]
    .filter(([wrapper]) => wrappers.has(wrapper))
    .map(([wrapper, record]) => ({ wrapper, record }));
  const at = Math.floor(deps.now() / 1000);
  // The root it published last stays readable for STORE_KEEP_ROOTS_S, as any root handed out does.
  const previous = legacy.root && (await deps.store.holds(legacy.root)) ? [legacy.root] : [];
  const commit: DriveCommit = {
    hex: user.hex,
    basedOn: null,
    head: {
      id: 0, // given when the change commits (db/commit.ts)
      email: user.email,
      hex: user.hex,
      version: 1,
      root,
      folders,
      manifest: { cid: manifest.file.cid, dagSize: manifest.file.dagSize },
      ...totals,
      nextSeq: entries.length,
      range: entries.length > 0 ? { min: 0, max: entries.length - 1 } : null,
      updated_at: legacy.updatedAt ?? localTimestamp(deps.now()),
    },
    added: entries,
    removed: [],
    media,
    rows: [...manifest.rows.values()],
    blocks: batch,
    handedOut: [root, ...previous],
    intents: [],
    at,
  };
  const outcome = await handled(commitChange(deps.db, commit));
  await deps.db.root.flushed;
  await deps.store.release(batch, outcome.ok);
  const dropped = candidates.length - entries.length;
  return { imported: outcome.ok, files: entries.length, recovered, dropped };
}
