import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import type { UserRecord } from '../identity/user-files.js';
import { wrapperOf } from './media/wrap.js';
import type { DriveReads } from './db/reads.js';
import type { DriveReader } from './reader.js';
import { exportDag, type BlockSource } from './store/export-car.js';
import { toCidV0 } from './store/ipfs-path.js';
import type { KuboStore } from './store/kubo.js';

export interface DriveImport {
  /** The drive's root directory, null for a drive never published. */
  root: string | null;
  /** CIDs pinned in Kubo: the root, each file's wrapper (its `ipfs_link`), each file's media folder. */
  pinned: string[];
  blocks: number;
  bytes: number;
}

/**
 * What the drive index keeps of one drive (db/commit.ts): the root, the wrapper directory of every file, and
 * the media folder of the files that have one.
 */
export async function drivePins(
  reader: Pick<DriveReader, 'list'>,
  reads: Pick<DriveReads, 'allMedia'>,
  user: UserRecord,
): Promise<{ root: string | null; pins: string[] }> {
  const manifest = await reader.list(user);
  const pins = new Set<string>();
  if (manifest.root_cid) pins.add(manifest.root_cid);
  for (const file of manifest.files) pins.add(wrapperOf(file));
  for (const media of reads.allMedia(user.hex)) pins.add(media.bundle);
  return { root: manifest.root_cid, pins: [...pins] };
}

/**
 * Copies a set of DAGs into Kubo: one CAR through `dag/import` (Kubo checks each block against its CID),
 * then a recursive pin of each root (a no-op when already pinned), then `pin/ls` of those roots to check
 * that Kubo holds them. Running it again sends the same blocks: Kubo keeps one copy of each.
 */
export class KuboImporter {
  private readonly client: KuboRPCClient;

  constructor(
    api: string,
    private readonly kubo: Pick<KuboStore, 'pin'>,
    private readonly blocks: BlockSource,
  ) {
    this.client = create({ url: api });
  }

  async importDrive(
    reader: Pick<DriveReader, 'list'>,
    reads: Pick<DriveReads, 'allMedia'>,
    user: UserRecord,
  ): Promise<DriveImport> {
    const { root, pins } = await drivePins(reader, reads, user);
    if (pins.length === 0) return { root, pinned: [], blocks: 0, bytes: 0 };
    const roots = pins.map((cid) => CID.parse(cid));
    const dag = exportDag(this.blocks, roots);
    const imported = (async () => {
      for await (const answer of this.client.dag.import([dag.car], { pinRoots: false })) void answer;
    })();
    const [, totals] = await Promise.all([imported, dag.done]);
    for (const cid of pins) await this.kubo.pin(cid);
    await this.checkPinned(pins);
    return { root, pinned: pins, ...totals };
  }

  private async checkPinned(pins: string[]): Promise<void> {
    const found = new Set<string>();
    const paths = pins.map((cid) => CID.parse(cid));
    for await (const pin of this.client.pin.ls({ paths, type: 'recursive' })) found.add(toCidV0(pin.cid));
    const missing = pins.filter((cid) => !found.has(toCidV0(cid)));
    if (missing.length > 0) throw new Error(`Kubo does not list ${missing.join(', ')} as pinned`);
  }
}
