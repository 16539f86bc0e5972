/**
 * What one upload costs as a drive fills: 64 KiB uploads of one user, one after another, measured when the
 * drive holds 0, 2,000 and 10,000 files (spread over the four categories). Prints, per size, the mean CPU
 * time of the process per upload and the wall time p50 / p99. Run: `node --import tsx bench/drive-scaling.ts`
 * (`SCALING_SIZES=0,2000` to choose). The drive service runs in this process on the embedded store.
 * `SCALING_CONCURRENCY=50` sends the measured uploads 50 at a time, as a busy station receives them: those
 * waiting for their drive together are one change (src/drive/changes/queue.ts: one transaction, one new root),
 * and the wall times are then per wave. `SCALING_USERS=50` spreads the measured uploads over that many users'
 * drives (nothing shared but the index's flush); `SCALING_FILL=each` fills every one of their drives to the
 * size measured (by default only the first user's). `SCALING_CATEGORIES=1` puts every file in one category
 * folder. `main_ms_per_upload` is the event loop's busy time per upload: what bounds a station's throughput;
 * `changes_per_upload` the drive changes committed per upload (each one LMDB transaction: the sum of the
 * drives' head versions); `store_kib_per_upload` how much the store grew per upload: the drive index's LMDB
 * file (`ipfs-store/lmdb/data.mdb`, blocks included: the file and every superseded folder node, manifest page
 * and root) and the files it holds by link (`ipfs-store/files`). Nothing is collected meanwhile (the
 * collector runs only in `start`). The services are the station's (src/drive/services.ts, openDriveAt).
 * `BENCH_CPU_PROFILE=<dir>` profiles each measured window (bench/profile.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UserRecord } from '../src/identity/user-files.js';
import { driveDbPath } from '../src/drive/db/drive-db.js';
import { openDriveAt } from '../test/drive/drive-fixture.js';
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
const services = await openDriveAt(root, { quotaBytes: 100 * 1024 ** 3 });
const { drive } = services;
const storeDir = join(root, 'ipfs-store');
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
    // Filled 50 at a time (a few changes per 50), with small files: only the count matters here. Every user's
    // drive with `SCALING_FILL=each`, else the first user's.
    for (const user of FILL_EACH ? users : users.slice(0, 1))
      while ((held.get(user) ?? 0) < target)
        await Promise.all(
          Array.from({ length: Math.min(50, target - held.get(user)!) }, () => add(16, user)),
        );
    await services.db.root.flushed;
    const storeBefore = await storeBytes();
    const walls: number[] = [];
    const changesBefore = changes();
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
    await services.db.root.flushed;
    const storeGrowth = (await storeBytes()) - storeBefore;
    walls.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        files_before: target,
        uploads: MEASURED,
        concurrency: CONCURRENCY,
        cpu_ms_per_upload: Math.round(((cpu.user + cpu.system) / 1000 / MEASURED) * 10) / 10,
        user_ms: Math.round((cpu.user / 1000 / MEASURED) * 10) / 10,
        main_ms_per_upload: Math.round((loop.active / MEASURED) * 100) / 100,
        changes_per_upload: Math.round(((changes() - changesBefore) / MEASURED) * 100) / 100,
        store_kib_per_upload: Math.round(storeGrowth / 1024 / MEASURED),
        users: USERS,
        wall_p50_ms: Math.round(walls[Math.floor(walls.length / 2)]!),
        wall_p99_ms: Math.round(walls[Math.min(walls.length - 1, Math.floor(walls.length * 0.99))]!),
      }),
    );
  }
} finally {
  await services.close();
  await removeBenchFiles(root);
}

/** Changes committed to the measured users' drives so far: each bumps its drive's head version. */
function changes(): number {
  return users.reduce((sum, user) => sum + (services.reads.head(user.hex)?.version ?? 0), 0);
}

/**
 * Bytes the store takes: the index's LMDB data file (it grows with the pages written, freed pages reused)
 * and the files held by link.
 */
async function storeBytes(): Promise<number> {
  const lmdb = await stat(join(driveDbPath(storeDir), 'data.mdb'));
  return lmdb.size + (await bytesUnder(join(storeDir, 'files')));
}

/** Bytes of the files under `dir` (none when it does not exist). */
async function bytesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const sizes = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => stat(join(e.parentPath, e.name)).then((s) => s.size)),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}
