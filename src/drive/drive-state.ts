import type { DriveCategory } from './categories.js';
import type { Manifest, ManifestEntry } from './manifest.js';

/** What a publication sets besides the list of files. */
export interface DriveTree {
  root_cid: string | null;
  folders: Partial<Record<DriveCategory, string>>;
  folder_dag_sizes: Partial<Record<DriveCategory, number>>;
  updated_at: string;
}

/** One publication: files added (in this order) and removed (by path), and the tree that results. */
export interface DriveChange {
  add?: readonly ManifestEntry[];
  remove?: readonly string[];
  tree: DriveTree;
}

/**
 * A drive's manifest and the indexes an upload asks (is this name taken, is this content already here, how
 * many bytes are used), kept up to date change by change: an upload never scans the list. Changes are
 * applied only once they are durable (manifest-log.ts); the files keep the order they were added in, which
 * is also the order of the published manifest, so that a new file only ever appends to it.
 */
export class DriveState {
  private readonly byPath = new Map<string, ManifestEntry>();
  private readonly bySha = new Map<string, ManifestEntry>();
  private used = 0;
  /** See freeNames (placement.ts): where the search for a free numbered name starts. */
  readonly numberHints = new Map<string, number>();

  constructor(
    readonly manifest: Manifest,
    /** The last change (manifest-log.ts sequence number) this state includes. */
    public seq: number,
  ) {
    for (const entry of manifest.files) this.index(entry);
    this.totals();
  }

  get usedBytes(): number {
    return this.used;
  }

  entry(path: string): ManifestEntry | undefined {
    return this.byPath.get(path);
  }

  /** A file of the drive with these bytes (the first added, when there are several). */
  withSha256(sha256: string): ManifestEntry | undefined {
    return this.bySha.get(sha256);
  }

  /** The files once `change` is applied, without applying it (what a publication is built from). */
  filesAfter(change: Pick<DriveChange, 'add' | 'remove'>): ManifestEntry[] {
    const removed = new Set(change.remove ?? []);
    const kept =
      removed.size > 0 ? this.manifest.files.filter((f) => !removed.has(f.path)) : this.manifest.files;
    return [...kept, ...(change.add ?? []).filter((f) => !this.byPath.has(f.path))];
  }

  /** How many files and bytes the drive holds once `change` is applied, worked out from the change alone. */
  totalsAfter(change: Pick<DriveChange, 'add' | 'remove'>): { files: number; bytes: number } {
    let files = this.manifest.files.length;
    let bytes = this.used;
    const removed = new Set<string>();
    for (const path of change.remove ?? []) {
      const entry = this.byPath.get(path);
      if (!entry || removed.has(path)) continue;
      removed.add(path);
      files -= 1;
      bytes -= entry.size;
    }
    for (const entry of change.add ?? []) {
      // As filesAfter: a path already in the drive is not added again.
      if (this.byPath.has(entry.path)) continue;
      files += 1;
      bytes += entry.size;
    }
    return { files, bytes };
  }

  apply(change: DriveChange): void {
    if (change.remove?.length) this.removeAll(change.remove);
    for (const entry of change.add ?? []) {
      const existing = this.byPath.get(entry.path);
      if (existing) {
        // Only a change replayed twice adds a path again: the newer entry takes the old one's place.
        this.unindex(existing);
        this.manifest.files[this.manifest.files.indexOf(existing)] = entry;
      } else this.manifest.files.push(entry);
      this.index(entry);
    }
    Object.assign(this.manifest, change.tree);
    this.totals();
  }

  /** A copy a caller may keep and change: the entries are shared, they are never modified in place. */
  snapshot(): Manifest {
    const m = this.manifest;
    return {
      ...m,
      folders: { ...m.folders },
      folder_dag_sizes: { ...m.folder_dag_sizes },
      files: [...m.files],
    };
  }

  private removeAll(paths: readonly string[]): void {
    const gone = new Set<ManifestEntry>();
    for (const path of paths) {
      const entry = this.byPath.get(path);
      if (entry) gone.add(entry);
    }
    if (gone.size === 0) return;
    this.numberHints.clear(); // a freed name is free again from the first number
    for (const entry of gone) this.unindex(entry);
    this.manifest.files = this.manifest.files.filter((f) => !gone.has(f));
    // Another file with the same bytes becomes the one found by its hash.
    for (const entry of this.manifest.files)
      if (!this.bySha.has(entry.sha256)) this.bySha.set(entry.sha256, entry);
  }

  private index(entry: ManifestEntry): void {
    this.byPath.set(entry.path, entry);
    if (!this.bySha.has(entry.sha256)) this.bySha.set(entry.sha256, entry);
    this.used += entry.size;
  }

  private unindex(entry: ManifestEntry): void {
    this.byPath.delete(entry.path);
    if (this.bySha.get(entry.sha256) === entry) this.bySha.delete(entry.sha256);
    this.used -= entry.size;
  }

  private totals(): void {
    this.manifest.total_files = this.manifest.files.length;
    this.manifest.total_size = this.used;
  }
}
