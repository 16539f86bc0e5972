/**
 * Leaf size of an import: the station's path for a large file (src/drive/store/embedded-import.ts: the file
 * read in 1 MiB reads, each leaf hashed in place and its place in the file recorded, inner nodes stored) with
 * Kubo's default 256 KiB leaves and with 1 MiB leaves, on the same file of CHUNK_BENCH_MB (default 1024),
 * beside `ipfs_cid` (Debian `ipfs-cid`, Kubo's defaults) and `sha256sum` on it. Prints, per run, wall time,
 * CPU time of this process, blocks written and the root CID; whether the 256 KiB root equals `ipfs_cid`'s.
 * Run: `node --import tsx bench/chunk-size.ts` (`CHUNK_BENCH_RUNS`, default 3, runs of each, alternated).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { importFile } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import type { CID } from 'multiformats/cid';
import { placedLeaves } from '../src/drive/store/file-leaves.js';

const run = promisify(execFile);
const MiB = 1024 * 1024;
const SIZE = Number(process.env.CHUNK_BENCH_MB ?? 1024) * MiB;
const RUNS = Number(process.env.CHUNK_BENCH_RUNS ?? 3);
const LEAVES = { '256KiB': 256 * 1024, '1MiB': MiB } as const;

async function makeFile(path: string): Promise<void> {
  const handle = await open(path, 'w');
  try {
    const chunk = randomBytes(4 * MiB);
    for (let written = 0; written < SIZE; written += chunk.length) {
      chunk.writeUInt32BE(written / chunk.length);
      await handle.write(chunk, 0, Math.min(chunk.length, SIZE - written));
    }
  } finally {
    await handle.close();
  }
}

/** As importFileAt does for a large file, with `chunkSize` leaves; inner nodes kept in memory (a few KB). */
async function importWith(path: string, chunkSize: number) {
  const stored = new Map<string, Uint8Array>();
  let leaves = 0;
  const blockstore = {
    put: (cid: CID, bytes: Uint8Array) => {
      stored.set(cid.toString(), bytes);
      return Promise.resolve(cid);
    },
  };
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await importFile({ content: createReadStream(path, { highWaterMark: MiB }) }, blockstore, {
    profile: 'unixfs-v0-2015',
    reduceSingleLeafToSelf: true,
    blockWriteConcurrency: 8,
    chunker: fixedSize({ chunkSize }),
    bufferImporter: placedLeaves(() => (leaves += 1)),
  });
  const used = process.cpuUsage(cpu);
  return {
    wall_s: Math.round(performance.now() - start) / 1000,
    cpu_s: Math.round((used.user + used.system) / 1000) / 1000,
    leaves,
    inner_nodes: stored.size,
    cid: result.cid.toString(),
  };
}

async function timedCommand(command: string, path: string): Promise<{ wall_s: number; output: string }> {
  const start = performance.now();
  const { stdout } = await run(command, [path], { maxBuffer: 1024 * 1024 });
  return { wall_s: Math.round(performance.now() - start) / 1000, output: stdout };
}

const file = join(tmpdir(), `chunk-size-${process.pid}.bin`);
await makeFile(file);
try {
  // Read once first, so that every reader finds the file in the page cache alike.
  await run('cat', [file, '/dev/null']).catch(() => undefined);
  const ipfsCid = await timedCommand('ipfs_cid', file);
  const kuboCid = (JSON.parse(ipfsCid.output) as { CIDv0: string }).CIDv0;
  const sha256sum = await timedCommand('sha256sum', file);
  console.log(
    JSON.stringify({ size_mb: SIZE / MiB, ipfs_cid_s: ipfsCid.wall_s, sha256sum_s: sha256sum.wall_s }),
  );
  for (let i = 0; i < RUNS; i++) {
    for (const [leaf, chunkSize] of Object.entries(LEAVES)) {
      const result = await importWith(file, chunkSize);
      console.log(JSON.stringify({ leaf, ...result, same_cid_as_ipfs_cid: result.cid === kuboCid }));
    }
  }
} finally {
  await rm(file, { force: true });
}
