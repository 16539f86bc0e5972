import { LAST, type DriveDb } from './drive-db.js';
import type { DriveHead, EntryRecord, MediaRecord, PageRecord } from './records.js';

/** One user's blob as the Blossom and NIP-96 lists show it: a drive file seen by its SHA-256. */
export interface OwnedBlob {
  sha256: string;
  cid: string;
  size: number;
  /** MIME type. */
  type: string;
  /** Relative to the drive: `Images/a.jpg`. */
  path: string;
  /** `<wrapper CID>/<name>`, the file's IPFS path. */
  link: string;
  /** Unix seconds. */
  uploaded: number;
}

/** `added_at` is a local time without zone, which Date.parse reads as local time too. */
function uploadedAt(entry: Pick<EntryRecord, 'added_at'>): number {
  const ms = Date.parse(entry.added_at);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
}

export function ownedBlob(entry: EntryRecord): OwnedBlob {
  return {
    sha256: entry.sha256,
    cid: entry.cid,
    size: entry.size,
    type: entry.mime_type,
    path: entry.path,
    link: entry.ipfs_link,
    uploaded: uploadedAt(entry),
  };
}

/** A drive: its owner's key, or its number in the index (the head's `id`). */
type Drive = string | number;

/** What a snapshot read passes to lmdb-js: the read transaction it holds, if any. */
type At = { transaction?: ReturnType<DriveDb['root']['useReadTransaction']> };

/**
 * Reads of the drive index. Each call reads what is committed; a caller that needs several reads to agree
 * (a listing: the head and its files) runs them in `snapshot`.
 */
export class DriveReads {
  constructor(private readonly db: DriveDb) {}

  /** Runs `read` in one read transaction: every read it makes sees the same committed state. */
  snapshot<T>(read: (at: At) => T): T {
    const transaction = this.db.root.useReadTransaction();
    try {
      return read({ transaction });
    } finally {
      transaction.done();
    }
  }

  head(hex: string, at: At = {}): DriveHead | undefined {
    return this.db.drives.get(hex, at);
  }

  /**
   * The drive's number in the index's keys, from its owner's key (a head read) or given (a caller holding the
   * head already); -1, which no record has, for a drive the index does not know.
   */
  private idOf(drive: Drive, at: At): number {
    return typeof drive === 'number' ? drive : (this.db.drives.get(drive, at)?.id ?? -1);
  }

  /** The drive's files in the order they were added. */
  entries(hex: Drive, at: At = {}): EntryRecord[] {
    const id = this.idOf(hex, at);
    return [...this.db.entries.getRange({ start: [id, 0], end: [id, Infinity], ...at })].map((e) => e.value);
  }

  /** The files with seq in [from, to). */
  entriesBetween(hex: Drive, from: number, to: number, at: At = {}): EntryRecord[] {
    const id = this.idOf(hex, at);
    return [...this.db.entries.getRange({ start: [id, from], end: [id, to], ...at })].map((e) => e.value);
  }

  /** The seqs of the drive's files, in order, from `from` on (keys only: no file is decoded). */
  seqs(hex: Drive, at: At = {}, from = 0): number[] {
    const id = this.idOf(hex, at);
    const seqs: number[] = [];
    for (const key of this.db.entries.getKeys({ start: [id, from], end: [id, Infinity], ...at }))
      seqs.push(key[1]);
    return seqs;
  }

  /** The drive's file numbered `seq`. */
  entryBySeq(hex: Drive, seq: number, at: At = {}): EntryRecord | undefined {
    return this.db.entries.get([this.idOf(hex, at), seq], at);
  }

  /** The smallest and largest seq of the drive's files, null when it holds none. */
  seqRange(hex: Drive, at: At = {}): { min: number; max: number } | null {
    const id = this.idOf(hex, at);
    const first = [...this.db.entries.getKeys({ start: [id, 0], end: [id, Infinity], limit: 1, ...at })];
    const last = [
      ...this.db.entries.getKeys({ start: [id, Infinity], end: [id, -1], reverse: true, limit: 1, ...at }),
    ];
    if (!first[0] || !last[0]) return null;
    return { min: first[0][1], max: last[0][1] };
  }

  /** Up to `limit` seqs of the drive's files from its first (or, `reverse`, its last) on. */
  endSeqs(hex: Drive, limit: number, reverse = false): number[] {
    const id = this.idOf(hex, {});
    const range = reverse
      ? { start: [id, Infinity] as [number, number], end: [id, -1] as [number, number], reverse, limit }
      : { start: [id, 0] as [number, number], end: [id, Infinity] as [number, number], limit };
    return [...this.db.entries.getKeys(range)].map((key) => key[1]);
  }

  /** Up to `limit` seqs of the drive's files with these bytes, in added order. */
  seqsWithSha256(hex: Drive, sha256: string, limit: number): number[] {
    const id = this.idOf(hex, {});
    const range = { start: [id, sha256, 0], end: [id, sha256, Infinity], limit } as const;
    return [...this.db.hashes.getKeys(range as never)].map((key) => (key as [number, string, number])[2]);
  }

  entryAt(hex: Drive, path: string, at: At = {}): EntryRecord | undefined {
    const id = this.idOf(hex, at);
    const seq = this.db.paths.get([id, path], at);
    return seq === undefined ? undefined : this.db.entries.get([id, seq], at);
  }

  /** The drive's first file (in added order) with these bytes. */
  withSha256(hex: Drive, sha256: string, at: At = {}): EntryRecord | undefined {
    return this.firstWithSha256(this.idOf(hex, at), sha256, at);
  }

  private firstWithSha256(id: number, sha256: string, at: At = {}): EntryRecord | undefined {
    const keys = [
      ...this.db.hashes.getKeys({ start: [id, sha256, 0], end: [id, sha256, Infinity], limit: 1, ...at }),
    ];
    const seq = keys[0]?.[2];
    return seq === undefined ? undefined : this.db.entries.get([id, seq], at);
  }

  /** A blob by hash, whoever holds it: the first holder's first copy. */
  findBlob(sha256: string): OwnedBlob | undefined {
    for (const key of this.db.holders.getKeys({ start: [sha256, 0], end: [sha256, Infinity], limit: 4 })) {
      const entry = this.firstWithSha256(key[1], sha256);
      if (entry) return ownedBlob(entry);
    }
    return undefined;
  }

  heldBy(hex: string, sha256: string): OwnedBlob | undefined {
    const entry = this.withSha256(hex, sha256);
    return entry && ownedBlob(entry);
  }

  /** A user's blobs, newest first (the order BUD-12 and NIP-96 list them in), one per SHA-256. */
  owned(hex: string): OwnedBlob[] {
    const seen = new Set<string>();
    const blobs: OwnedBlob[] = [];
    for (const entry of this.entries(hex)) {
      if (seen.has(entry.sha256)) continue;
      seen.add(entry.sha256);
      blobs.push(ownedBlob(entry));
    }
    return blobs.sort((a, b) => b.uploaded - a.uploaded || (a.sha256 < b.sha256 ? -1 : 1));
  }

  media(hex: string, wrapper: string): MediaRecord | undefined {
    return this.db.media.get([this.idOf(hex, {}), wrapper]);
  }

  /** Every media record of a drive (the CLI's Kubo import pins them). */
  allMedia(hex: string): MediaRecord[] {
    const id = this.idOf(hex, {});
    return [...this.db.media.getRange({ start: [id, ''], end: [id, LAST] })].map((e) => e.value);
  }

  row(hex: Drive, level: number, index: number): PageRecord | undefined {
    return this.db.pages.get([this.idOf(hex, {}), level, index]);
  }

  /** Every drive's owner key (the collector walks their roots; the migration checks who is done). */
  driveKeys(): string[] {
    return [...this.db.drives.getKeys()];
  }
}
