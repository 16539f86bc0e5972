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

  /** The drive's files in the order they were added. */
  entries(hex: string, at: At = {}): EntryRecord[] {
    return [...this.db.entries.getRange({ start: [hex, 0], end: [hex, Infinity], ...at })].map(
      (e) => e.value,
    );
  }

  /** The files with seq in [from, to). */
  entriesBetween(hex: string, from: number, to: number, at: At = {}): EntryRecord[] {
    return [...this.db.entries.getRange({ start: [hex, from], end: [hex, to], ...at })].map((e) => e.value);
  }

  /** The smallest and largest seq of the drive's files, null when it holds none. */
  seqRange(hex: string, at: At = {}): { min: number; max: number } | null {
    const first = [...this.db.entries.getKeys({ start: [hex, 0], end: [hex, Infinity], limit: 1, ...at })];
    const last = [
      ...this.db.entries.getKeys({ start: [hex, Infinity], end: [hex, -1], reverse: true, limit: 1, ...at }),
    ];
    if (!first[0] || !last[0]) return null;
    return { min: first[0][1], max: last[0][1] };
  }

  /** Up to `limit` seqs of the drive's files from its first (or, `reverse`, its last) on. */
  endSeqs(hex: string, limit: number, reverse = false): number[] {
    const range = reverse
      ? { start: [hex, Infinity] as [string, number], end: [hex, -1] as [string, number], reverse, limit }
      : { start: [hex, 0] as [string, number], end: [hex, Infinity] as [string, number], limit };
    return [...this.db.entries.getKeys(range)].map((key) => key[1]);
  }

  /** Up to `limit` seqs of the drive's files with these bytes, in added order. */
  seqsWithSha256(hex: string, sha256: string, limit: number): number[] {
    const range = { start: [hex, sha256, 0], end: [hex, sha256, Infinity], limit } as const;
    return [...this.db.hashes.getKeys(range as never)].map((key) => (key as [string, string, number])[2]);
  }

  entryAt(hex: string, path: string, at: At = {}): EntryRecord | undefined {
    const seq = this.db.paths.get([hex, path], at);
    return seq === undefined ? undefined : this.db.entries.get([hex, seq], at);
  }

  /** The drive's first file (in added order) with these bytes. */
  withSha256(hex: string, sha256: string, at: At = {}): EntryRecord | undefined {
    const keys = [
      ...this.db.hashes.getKeys({ start: [hex, sha256, 0], end: [hex, sha256, Infinity], limit: 1, ...at }),
    ];
    const seq = keys[0]?.[2];
    return seq === undefined ? undefined : this.db.entries.get([hex, seq], at);
  }

  /** A blob by hash, whoever holds it: the first holder's first copy. */
  findBlob(sha256: string): OwnedBlob | undefined {
    for (const key of this.db.holders.getKeys({ start: [sha256, ''], end: [sha256, LAST], limit: 4 })) {
      const entry = this.withSha256(key[1], sha256);
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
    return this.db.media.get([hex, wrapper]);
  }

  /** Every media record of a drive (the CLI's Kubo import pins them). */
  allMedia(hex: string): MediaRecord[] {
    return [...this.db.media.getRange({ start: [hex, ''], end: [hex, LAST] })].map((e) => e.value);
  }

  row(hex: string, level: number, index: number): PageRecord | undefined {
    return this.db.pages.get([hex, level, index]);
  }

  /** Every drive's owner key (the collector walks their roots; the migration checks who is done). */
  driveKeys(): string[] {
    return [...this.db.drives.getKeys()];
  }
}
