/**
 * Leaf size of an import: the station's path for a large file (src/drive/store/embedded-import.ts: the file
 * read in 1 MiB reads, each leaf hashed in place and its place in the file recorded, inner nodes stored) with
 * Kubo's default 256 KiB leaves and with 1 MiB leaves, on the same file of CHUNK_BENCH_MB (default 1024),
 * beside `ipfs_cid` (Debian `ipfs-cid`, Kubo's defaults) and `sha256sum` on it. Prints, per run, wall time,
 * CPU time of this process, blocks written and the root CID; whether the 256 KiB root equals `ipfs_cid`'s.
 * Run: `node --import tsx bench/chunk-size.ts` (`CHUNK_BENCH_RUNS`, default 3, runs of each, alternated).
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import type { CID } from 'multiformats/cid';
import { placedLeaves } from '../src/drive/store/file-leaves.js';
import { makeFile, referenceReaders } from './large-file.js';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.CHUNK_BENCH_MB ?? 1024) * MiB;
const RUNS = Number(process.env.CHUNK_BENCH_RUNS ?? 3);
const LEAVES = { '256KiB': 256 * 1024, '1MiB': MiB } as const;

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

const file = join(tmpdir(), `chunk-size-${process.pid}.bin`);
await makeFile(file, SIZE);
try {
  const { ipfsCid, sha256sum } = await referenceReaders(file);
  const kuboCid = ipfsCid.value;
  console.log(
    JSON.stringify({ size_mb: SIZE / MiB, ipfs_cid_s: ipfsCid.seconds, sha256sum_s: sha256sum.seconds }),
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
