import { statfs } from 'node:fs/promises';

export interface DiskSpace {
  /** Bytes an unprivileged process may still write on the file system of the directory. */
  freeBytes: number;
  /** Under the station's threshold (DISK_MIN_FREE_MB): `/health` says degraded. */
  low: boolean;
}

/** Free space of the file system holding `dir` (DATA_ROOT), judged against `minFreeBytes`. */
export async function diskSpace(dir: string, minFreeBytes: number): Promise<DiskSpace> {
  const stats = await statfs(dir);
  const freeBytes = Number(stats.bavail) * Number(stats.bsize);
  return { freeBytes, low: freeBytes < minFreeBytes };
}
