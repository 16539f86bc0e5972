/**
 * What one upload and one delete leave in the store as a drive fills: for a drive of 0, 2,000 and 10,000
 * files (spread over the four categories), 200 uploads of 64 KiB one after the other, then 200 deletes, each
 * measured as the growth of the bytes the embedded store holds (the drive index's pages in use plus the files
 * it holds by link; the index's file size too). Superseded roots, folders and manifest pages are kept
 * STORE_KEEP_ROOTS_S (a day by default), so this is what a change costs before any collection (what a
 * collection gives back is test/drive/gc/growth.test.ts's). Bytes, not time: this machine's noise does not
 * change them. Run: `node --import tsx bench/store-growth.ts` (`GROWTH_SIZES=0,2000`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeSize } from '../src/drive/gc/store-size.js';
import { MIGRATED_KEY } from '../src/drive/migrate/migration.js';
import type { UserRecord } from '../src/identity/user-files.js';
import { openDriveAt } from '../test/drive/drive-fixture.js';

const SIZES = (process.env.GROWTH_SIZES ?? '0,2000,10000').split(',').map(Number);
const MEASURED = Number(process.env.GROWTH_UPLOADS ?? 200);
const FILE_BYTES = 64 * 1024;
const EXTENSIONS = ['jpg', 'mp3', 'mp4', 'pdf'];

async function* bytes(size: number): AsyncGenerator<Uint8Array> {
  yield randomBytes(size);
}

const kib = (n: number) => (n / 1024).toFixed(1);

console.log(
  '| files in the drive | per upload, beyond the file (KiB) | per delete (KiB) | index file per change (KiB) |',
);
console.log('| --- | --- | --- | --- |');
for (const size of SIZES) {
  const root = await mkdtemp(join(tmpdir(), 'store-growth-'));
  const services = await openDriveAt(root, { env: { STORE_GC_INTERVAL_S: '0' } });
  const { drive, db } = services;
  await db.meta.put(MIGRATED_KEY, true);
  const user: UserRecord = {
    email: 'grow@example.org',
    hex: 'ab'.repeat(32),
    npub: '',
    g1pub: null,
    gps: null,
  };
  // Filled 50 at a time: one batch (one transaction) each, as a burst of uploads is.
  for (let at = 0; at < size; at += 50) {
    const wave = Array.from({ length: Math.min(50, size - at) }, (_, i) => at + i);
    await Promise.all(
      wave.map((n) => drive.addStream(user, `fill-${n}.${EXTENSIONS[n % 4]}`, bytes(200), { kind: 'cli' })),
    );
  }
  const storeDir = join(root, 'ipfs-store');
  const held = async () => {
    const s = await storeSize(db, storeDir);
    return { bytes: s.indexBytes + s.heldBytes, file: s.indexFileBytes };
  };
  const start = await held();
  const added: string[] = [];
  for (let i = 0; i < MEASURED; i++) {
    const result = await drive.addStream(user, `measured-${i}.${EXTENSIONS[i % 4]}`, bytes(FILE_BYTES), {
      kind: 'cli',
    });
    added.push(result.entry.path);
  }
  const afterUploads = await held();
  for (const path of added) await drive.delete(user, path);
  const afterDeletes = await held();
  const perUpload = (afterUploads.bytes - start.bytes) / MEASURED - FILE_BYTES;
  // A deleted file's bytes stay held until a collection: only what the delete wrote counts here.
  const perDelete = (afterDeletes.bytes - afterUploads.bytes) / MEASURED;
  const fileGrowth = (afterDeletes.file - start.file) / (2 * MEASURED);
  console.log(
    `| ${size.toLocaleString('en')} | ${kib(perUpload)} | ${kib(perDelete)} | ${kib(fileGrowth)} |`,
  );
  await services.close();
  await rm(root, { recursive: true, force: true });
}
