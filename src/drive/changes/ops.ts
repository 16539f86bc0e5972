import type { StagedFile } from '../../fs/staging.js';
import type { BlockBatch } from '../db/block-batch.js';
import type { EntryRecord } from '../db/records.js';
import type { Provenance } from '../manifest.js';
import type { DriveFileResult } from '../placement.js';
import type { AddResult } from '../store/types.js';

/** A staged, imported file to be placed in a drive. */
export interface Placement {
  staged: StagedFile;
  added: AddResult;
  /** The import's blocks (the embedded store), written by the change that places the file. */
  batch: BlockBatch;
  /** Sanitised name asked for. */
  name: string;
  source: Provenance;
  /** The same bytes already in the drive are the answer (Blossom, NIP-96: one file per SHA-256). */
  reuseSameContent?: boolean;
}

/** What a change of a drive is made of: files placed and files removed, in the order asked. */
export type DriveOp = { kind: 'add'; placement: Placement } | { kind: 'remove'; path: string };

export interface Removal {
  entry: EntryRecord;
  rootCid: string;
}

export type Outcome = { ok: true; value: DriveFileResult | Removal } | { ok: false; error: unknown };
