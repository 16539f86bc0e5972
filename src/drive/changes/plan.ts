import { within } from '../../fs/paths.js';
import { Conflict, NotFound } from '../../errors.js';
import { processInstance } from '../../process/identity.js';
import { categoryFor, fileTypeFor, mimeTypeFor, type DriveCategory } from '../categories.js';
import { BlockBatch } from '../db/block-batch.js';
import type { DriveCommit } from '../db/commit.js';
import type { EntryRecord, FsIntent } from '../db/records.js';
import { existingFile, freeNames, type DriveFileResult } from '../placement.js';
import { QuotaExceededError } from '../quota.js';
import { encodeDirectory } from '../store/dag.js';
import type { NodeStore } from '../tree/nodes.js';
import type { DriveView } from './drive-view.js';
import type { DriveOp, Outcome, Placement } from './ops.js';
import { publishTree, type TreeContext } from './publish.js';

const nameTaken = (name: string) =>
  new Conflict('NAME_TAKEN', {
    en: `Too many files named like ${name}; rename the file.`,
    fr: `Trop de fichiers portent un nom comme ${name} ; renommez le fichier.`,
  });

export interface PlanContext extends TreeContext {
  driveDir: string;
  quotaBytes: number;
  /** The time written in new entries and the head (a local ISO time, clock.ts). */
  now: string;
  /** Unix seconds, for the roots handed out. */
  at: number;
  /** Per name asked for, where the search for a free numbered name starts (see freeNames). */
  hints: Map<string, number>;
}

/** A planned change: each op's outcome (the root filled in once known), and what to commit. */
export interface Plan {
  outcomes: Outcome[];
  commit: DriveCommit | null;
  /** Staged files to move into the drive's folders once committed, and files to remove. */
  moves: { staged: Placement['staged']; final: string }[];
  removals: string[];
}

/**
 * Plans a batch of a drive's changes on `view`: removals first, then each file placed under a free name
 * within the quota (one refused alone fails alone), its wrapper built, then the new tree. The blocks go into
 * `batch`; nothing is written until the commit.
 */
export async function planChange(
  view: DriveView,
  ops: readonly DriveOp[],
  nodes: NodeStore,
  batch: BlockBatch,
  context: PlanContext,
): Promise<Plan> {
  const outcomes: Outcome[] = new Array(ops.length);
  const removals: string[] = [];
  const removedEntries = new Map<number, EntryRecord>();
  for (const [index, op] of ops.entries()) {
    if (op.kind !== 'remove') continue;
    const entry = view.entryAt(op.path);
    if (!entry) {
      outcomes[index] = {
        ok: false,
        error: new NotFound('FILE_NOT_FOUND', {
          en: `There is no file ${op.path} in the drive.`,
          fr: `Il n’y a pas de fichier ${op.path} dans le uDRIVE.`,
        }),
      };
      continue;
    }
    view.remove(entry);
    removedEntries.set(index, entry);
    removals.push(within(context.driveDir, entry.category, entry.name));
  }
  if (removedEntries.size > 0) context.hints.clear(); // a freed name is free again from the first number
  const fitting: { index: number; placement: Placement; category: DriveCategory }[] = [];
  let bytes = view.totals.bytes;
  for (const [index, op] of ops.entries()) {
    if (op.kind !== 'add') continue;
    const { placement } = op;
    const same = placement.reuseSameContent ? view.withSha256(placement.staged.sha256) : undefined;
    if (same) outcomes[index] = { ok: true, value: existingFile(context.driveDir, null, same) };
    else if (bytes + placement.staged.size > context.quotaBytes)
      outcomes[index] = { ok: false, error: new QuotaExceededError(context.quotaBytes) };
    else {
      bytes += placement.staged.size;
      fitting.push({ index, placement, category: categoryFor(placement.name) });
    }
  }
  const names = await freeNames(
    context.driveDir,
    (path) => view.isListed(path),
    fitting.map(({ placement, category }) => ({ category, name: placement.name })),
    context.hints,
  );
  const placed: { index: number; entry: EntryRecord; placement: Placement }[] = [];
  for (const [i, { index, placement, category }] of fitting.entries()) {
    const name = names[i];
    if (!name) {
      outcomes[index] = { ok: false, error: nameTaken(placement.name) };
      continue;
    }
    batch.merge(placement.batch);
    const { cid, dagSize } = placement.added;
    const wrapper = await encodeDirectory([{ name, cid, dagSize }]);
    await nodes.putKnown(wrapper.cid, wrapper.bytes);
    const entry = view.add({
      path: `${category}/${name}`,
      name,
      category,
      file_type: fileTypeFor(category),
      mime_type: mimeTypeFor(name),
      size: placement.staged.size,
      sha256: placement.staged.sha256,
      cid,
      dag_size: dagSize,
      ipfs_link: `${wrapper.cid}/${name}`,
      added_at: context.now,
      source: placement.source,
    });
    placed.push({ index, entry, placement });
  }
  if (placed.length === 0 && removedEntries.size === 0)
    return { outcomes: fillRoot(outcomes, view.head?.root ?? ''), commit: null, moves: [], removals: [] };
  const tree = await publishTree(view, nodes, context);
  const head = {
    id: view.head?.id ?? 0, // the index gives a new drive its number when the change commits
    email: context.email,
    hex: view.hex,
    version: (view.head?.version ?? 0) + 1,
    root: tree.root,
    folders: tree.folders,
    manifest: { cid: tree.manifest.file.cid, dagSize: tree.manifest.file.dagSize },
    files: view.totals.files,
    bytes: view.totals.bytes,
    nextSeq: view.nextSeq,
    range: view.seqRange(),
    updated_at: context.now,
  };
  const intents: FsIntent[] = [
    ...placed.map(({ entry, placement }) => ({
      op: 'place' as const,
      path: entry.path,
      staged: placement.staged.path,
      holder: processInstance,
    })),
    ...[...removedEntries.values()].map((entry) => ({
      op: 'remove' as const,
      path: entry.path,
      holder: processInstance,
    })),
  ];
  for (const [index, entry] of removedEntries)
    outcomes[index] = { ok: true, value: { entry, rootCid: tree.root } };
  const moves = placed.map(({ index, entry, placement }) => {
    const folder = within(context.driveDir, entry.category);
    const result: DriveFileResult = {
      entry,
      rootCid: tree.root,
      targetDirectory: folder,
      filePath: `APP/uDRIVE/${entry.path}`,
      renamed: entry.name !== placement.name,
    };
    outcomes[index] = { ok: true, value: result };
    return { staged: placement.staged, final: within(folder, entry.name) };
  });
  const { added, removed } = view.changes();
  return {
    outcomes: fillRoot(outcomes, tree.root),
    commit: {
      hex: view.hex,
      basedOn: view.head?.version ?? null,
      head,
      added,
      removed,
      rows: [...tree.manifest.rows.values()],
      blocks: batch,
      // A file's wrapper is kept while the file is, then STORE_KEEP_ROOTS_S more (db/commit.ts countRef).
      handedOut: [tree.root],
      intents,
      at: context.at,
    },
    moves,
    removals,
  };
}

/** Files found again by their bytes answer with the root that holds them once the change is made. */
function fillRoot(outcomes: Outcome[], root: string): Outcome[] {
  for (const outcome of outcomes)
    if (outcome?.ok && 'existing' in outcome.value && outcome.value.existing) outcome.value.rootCid = root;
  return outcomes;
}
