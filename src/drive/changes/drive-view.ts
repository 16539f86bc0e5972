import type { DriveCategory } from '../categories.js';
import type { DriveReads } from '../db/reads.js';
import type { DriveHead, EntryRecord } from '../db/records.js';

/**
 * A drive as a change being planned sees it: the index as committed (the head the change is based on), with
 * the change's own additions and removals laid over it. Never shared, never cached: each attempt at a change
 * makes its own (changes/queue.ts).
 */
export class DriveView {
  private readonly added = new Map<number, EntryRecord>();
  private readonly removed = new Map<number, EntryRecord>();
  private readonly addedPaths = new Map<string, EntryRecord>();
  private readonly removedPaths = new Set<string>();
  private files: number;
  private bytes: number;
  private next: number;

  /** The drive's number in the index (read once: every read below asks by it). */
  private readonly id: number;

  constructor(
    private readonly reads: DriveReads,
    readonly hex: string,
    readonly head: DriveHead | undefined,
  ) {
    this.id = head?.id ?? -1;
    this.files = head?.files ?? 0;
    this.bytes = head?.bytes ?? 0;
    this.next = head?.nextSeq ?? 0;
  }

  get totals(): { files: number; bytes: number } {
    return { files: this.files, bytes: this.bytes };
  }

  /** A node of the drive's published manifest as committed (tree/manifest-tree.ts). */
  row(level: number, index: number) {
    return this.reads.row(this.id, level, index);
  }

  get nextSeq(): number {
    return this.next;
  }

  entryAt(path: string): EntryRecord | undefined {
    const added = this.addedPaths.get(path);
    if (added) return added;
    if (this.removedPaths.has(path)) return undefined;
    return this.head ? this.reads.entryAt(this.id, path) : undefined;
  }

  isListed(path: string): boolean {
    return this.entryAt(path) !== undefined;
  }

  /** The first file (in added order) with these bytes, as the change leaves the drive. */
  withSha256(sha256: string): EntryRecord | undefined {
    // Committed copies come first (lower seqs); those this change removes are passed over.
    const seqs = this.head ? this.reads.seqsWithSha256(this.id, sha256, this.removed.size + 1) : [];
    const kept = seqs.find((seq) => !this.removed.has(seq));
    if (kept !== undefined) return this.reads.entriesBetween(this.id, kept, kept + 1)[0];
    for (const entry of this.added.values()) if (entry.sha256 === sha256) return entry;
    return undefined;
  }

  /** Takes a new file's seq and lists it. */
  add(entry: Omit<EntryRecord, 'seq'>): EntryRecord {
    const record = { ...entry, seq: this.next++ };
    this.added.set(record.seq, record);
    this.addedPaths.set(record.path, record);
    this.files += 1;
    this.bytes += record.size;
    return record;
  }

  remove(entry: EntryRecord): void {
    if (this.added.delete(entry.seq)) this.addedPaths.delete(entry.path);
    else {
      this.removed.set(entry.seq, entry);
      this.removedPaths.add(entry.path);
    }
    this.files -= 1;
    this.bytes -= entry.size;
  }

  /** What the change adds and removes, committed entries only on the removed side. */
  changes(): { added: EntryRecord[]; removed: EntryRecord[] } {
    return { added: [...this.added.values()], removed: [...this.removed.values()] };
  }

  /** The seqs the change adds or removes. */
  touched(): number[] {
    return [...this.added.keys(), ...this.removed.keys()];
  }

  /** Per category: names to take out of its folder, files to put in. */
  folderEdits(): Map<DriveCategory, { add: EntryRecord[]; remove: string[] }> {
    const edits = new Map<DriveCategory, { add: EntryRecord[]; remove: string[] }>();
    const of = (category: DriveCategory) => {
      let edit = edits.get(category);
      if (!edit) edits.set(category, (edit = { add: [], remove: [] }));
      return edit;
    };
    for (const entry of this.removed.values()) of(entry.category).remove.push(entry.name);
    for (const entry of this.added.values()) of(entry.category).add.push(entry);
    return edits;
  }

  /** The files with seq in [from, to) after the change, in seq order. */
  entriesBetween(from: number, to: number): EntryRecord[] {
    const committed = this.head ? this.reads.entriesBetween(this.id, from, to) : [];
    const kept = committed.filter((e) => !this.removed.has(e.seq));
    const added = [...this.added.values()].filter((e) => e.seq >= from && e.seq < to);
    return [...kept, ...added].sort((a, b) => a.seq - b.seq);
  }

  /** The smallest and largest seq the drive held before the change (the head keeps them), null when empty. */
  committedRange(): { min: number; max: number } | null {
    if (!this.head || this.head.files === 0) return null;
    return this.head.range ?? this.reads.seqRange(this.id);
  }

  /** The smallest and largest seq after the change, null when the drive holds nothing. */
  seqRange(): { min: number; max: number } | null {
    if (this.files === 0) return null;
    this.range ??= this.rangeAfter();
    return this.range;
  }

  private range: { min: number; max: number } | null = null;

  private rangeAfter(): { min: number; max: number } | null {
    let min = Infinity;
    let max = -Infinity;
    for (const seq of this.added.keys()) {
      min = Math.min(min, seq);
      max = Math.max(max, seq);
    }
    const committed = this.committedRange();
    if (committed) {
      let low: number | undefined = committed.min;
      let high: number | undefined = committed.max;
      // An end this change removes: the next committed seq inward (at most that many are removed).
      const count = this.removed.size + 1;
      if (this.removed.has(low))
        low = this.reads.endSeqs(this.id, count).find((seq) => !this.removed.has(seq));
      if (this.removed.has(high))
        high = this.reads.endSeqs(this.id, count, true).find((seq) => !this.removed.has(seq));
      if (low !== undefined && high !== undefined) {
        min = Math.min(min, low);
        max = Math.max(max, high);
      }
    }
    return Number.isFinite(min) ? { min, max } : null;
  }
}
