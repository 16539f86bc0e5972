/**
 * What one upload costs as a drive fills: 64 KiB uploads of one user, one after another, measured when the
 * drive holds 0, 2,000 and 10,000 files (spread over the four categories). Prints, per size, the mean CPU
 * time of the process per upload and the wall time p50 / p99. Run: `node --import tsx bench/drive-scaling.ts`
 * (`SCALING_SIZES=0,2000` to choose). The drive service runs in this process on the embedded store.
 * `SCALING_CONCURRENCY=50` sends the measured uploads 50 at a time, as a busy station receives them: they
 * share a group commit (one log line and flush, one new root), and the wall times are then per wave.
 * `SCALING_USERS=50` spreads the measured uploads over that many users' drives (nothing shared but the store's
 * flush); `SCALING_FILL=each` fills every one of their drives to the size measured (by default only the first
 * user's). `SCALING_CATEGORIES=1` puts every file in one category folder. `main_ms_per_upload` is the
 * event loop's busy time per upload: what bounds a station's throughput; `lmdb_commits_per_upload` the content
 * store's transactions per upload (src/drive/store/pending-writes.ts); `store_kib_per_upload` how much the
 * store's files grew per upload: the file and every superseded folder, manifest leaf and root. The drive lock
 * is leased as the station leases it (STATION_LEASE). `BENCH_CPU_PROFILE=<dir>` profiles each measured
 * window (bench/profile.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UserRecord } from '../src/identity/user-files.js';
import { STATION_LEASE } from '../src/drive/lock.js';
import { openDriveAt } from '../test/drive/drive-on-disk.js';
import { awaitFreshInodes, removeBenchFiles } from './fresh-inodes.js';
import { profiled } from './profile.js';

const SIZES = (process.env.SCALING_SIZES ?? '0,2000,10000').split(',').map(Number);
const MEASURED = Number(process.env.SCALING_UPLOADS ?? 40);
const CONCURRENCY = Number(process.env.SCALING_CONCURRENCY ?? 1);
/** One extension per category; `SCALING_CATEGORIES=1` puts every file in Images (a HAMT shard past ~5,300). */
const EXTENSIONS = ['jpg', 'mp3', 'mp4', 'pdf'].slice(0, Number(process.env.SCALING_CATEGORIES ?? 4));
const USERS = Number(process.env.SCALING_USERS ?? 1);
const FILL_EACH = process.env.SCALING_FILL === 'each';
/**
 * Uploads sent first, unmeasured, to a drive of their own (`SCALING_WARMUP`; none before 2026-11-26): the
 * first window would otherwise also measure V8 compiling the upload path, as in bench/run.ts.
 */
const WARMUP = Number(process.env.SCALING_WARMUP ?? 300);

async function* bytes(size: number): AsyncGenerator<Uint8Array> {
  yield randomBytes(size);
}

await awaitFreshInodes();
const root = await mkdtemp(join(tmpdir(), 'drive-scaling-'));
const { store, drive } = await openDriveAt(root, 100 * 1024 ** 3, STATION_LEASE);
const users: UserRecord[] = Array.from({ length: USERS }, (_, n) => ({
  email: `bench-${n}@example.org`,
  hex: (n + 1).toString(16).padStart(64, '0'),
  npub: '',
  g1pub: null,
  gps: null,
}));

let files = 0;
/** Files each measured user's drive holds. */
const held = new Map<UserRecord, number>();
const add = (size: number, user = users[files % USERS]!) => {
  held.set(user, (held.get(user) ?? 0) + 1);
  return drive.addStream(
    user,
    `file-${String(files++).padStart(6, '0')}.${EXTENSIONS[files % EXTENSIONS.length]}`,
    bytes(size),
    {
      kind: 'cli',
    },
  );
};

const warmupUser: UserRecord = { ...users[0]!, email: 'bench-warmup@example.org', hex: 'f'.repeat(64) };

try {
  for (let sent = 0; sent < WARMUP; sent += CONCURRENCY)
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, WARMUP - sent) }, (_, i) =>
        drive.addStream(warmupUser, `warmup-${sent + i}.jpg`, bytes(64 * 1024), { kind: 'cli' }),
      ),
    );
  for (const target of SIZES) {
    // Filled 50 at a time (group commits), with small files: only the count matters here. Every user's
    // drive with `SCALING_FILL=each`, else the first user's.
    for (const user of FILL_EACH ? users : users.slice(0, 1))
      while ((held.get(user) ?? 0) < target)
        await Promise.all(
          Array.from({ length: Math.min(50, target - held.get(user)!) }, () => add(16, user)),
        );
    const storeBefore = await bytesUnder(join(root, 'ipfs'));
    const walls: number[] = [];
    const commitsBefore = store.commits;
    const cpuBefore = process.cpuUsage();
    const loopBefore = performance.eventLoopUtilization();
    await profiled(`drive-scaling-${target}`, async () => {
      for (let sent = 0; sent < MEASURED; sent += CONCURRENCY) {
        const start = performance.now();
        await Promise.all(
          Array.from({ length: Math.min(CONCURRENCY, MEASURED - sent) }, () => add(64 * 1024)),
        );
        walls.push(performance.now() - start);
      }
    });
    const cpu = process.cpuUsage(cpuBefore);
    const loop = performance.eventLoopUtilization(loopBefore);
    await store.flush();
    const storeGrowth = (await bytesUnder(join(root, 'ipfs'))) - storeBefore;
    walls.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        files_before: target,
        uploads: MEASURED,
        concurrency: CONCURRENCY,
        cpu_ms_per_upload: Math.round(((cpu.user + cpu.system) / 1000 / MEASURED) * 10) / 10,
        user_ms: Math.round((cpu.user / 1000 / MEASURED) * 10) / 10,
        main_ms_per_upload: Math.round((loop.active / MEASURED) * 100) / 100,
        lmdb_commits_per_upload: Math.round(((store.commits - commitsBefore) / MEASURED) * 100) / 100,
        store_kib_per_upload: Math.round(storeGrowth / 1024 / MEASURED),
        users: USERS,
        wall_p50_ms: Math.round(walls[Math.floor(walls.length / 2)]!),
        wall_p99_ms: Math.round(walls[Math.min(walls.length - 1, Math.floor(walls.length * 0.99))]!),
      }),
    );
  }
} finally {
  await drive.drain();
  await store.close();
  await removeBenchFiles(root);
}

/** Bytes of the files under `dir` (LMDB's data file grows with the pages it has written). */
async function bytesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const sizes = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => stat(join(e.parentPath, e.name)).then((s) => s.size)),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}
