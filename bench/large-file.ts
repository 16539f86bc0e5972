import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MiB = 1024 * 1024;

/** How long `work` took, in seconds to the hundredth, and what it gave. */
export async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { seconds: Math.round((performance.now() - start) / 10) / 100, value };
}

/** A file of `size` random bytes, written 4 MiB at a time (each block numbered, so no two are alike). */
export async function makeFile(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w');
  try {
    const chunk = randomBytes(4 * MiB);
    for (let written = 0; written < size; written += chunk.length) {
      chunk.writeUInt32BE(written / chunk.length);
      await handle.write(chunk, 0, Math.min(chunk.length, size - written));
    }
  } finally {
    await handle.close();
  }
}

/**
 * The tools the station's figures are read against, on `path`: `ipfs_cid` (Debian `ipfs-cid`, Kubo's
 * defaults, the CIDv0) and `sha256sum`, timed. The file is read once first, so that every reader (the station
 * too) finds it in the page cache alike.
 */
export async function referenceReaders(path: string) {
  await run('cat', [path, '/dev/null']).catch(() => undefined);
  const ipfsCid = await timed(() =>
    run('ipfs_cid', [path]).then(({ stdout }) => (JSON.parse(stdout) as { CIDv0: string }).CIDv0),
  );
  const sha256sum = await timed(() => run('sha256sum', [path]).then(({ stdout }) => stdout.split(' ')[0]!));
  return { ipfsCid, sha256sum };
}
