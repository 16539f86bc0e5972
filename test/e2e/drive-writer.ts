/**
 * A drive writer process for the end-to-end tests: opens the drive service on `<root>` (embedded store in
 * `<root>/ipfs`, users in `<root>/nostr`) as the station does, uploads COUNT files of SIZE bytes to one
 * user's drive all at once, and prints one JSON line per upload as soon as it is acknowledged, then
 * `{"done":true,"peakRssBytes":…,"startRssBytes":…}` (peak from /proc: VmHWM). It keeps the drive locked
 * between changes as the station does (drive/lock.ts, STATION_LEASE), so two writers take turns by lease.
 * Run: `node --import tsx test/e2e/drive-writer.ts <root> <email> <count> <size> <prefix> [hold]`. With
 * `hold`, the last upload's bytes never end: the burst cannot finish, whatever the machine's speed, before
 * the test kills the process in its middle.
 */
import { readFile } from 'node:fs/promises';
import { STATION_LEASE } from '../../src/drive/lock.js';
import { openDriveAt } from '../drive/drive-on-disk.js';
import { pseudoRandom } from '../drive/helpers.js';

const [root, email, count, size, prefix, hold] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string | undefined,
];

/** The first chunk of a file, then nothing more: an upload left open until the process dies. */
async function* neverEnding(name: string): AsyncGenerator<Uint8Array> {
  for await (const chunk of pseudoRandom(Number(size), name)) {
    yield chunk;
    break;
  }
  await new Promise(() => undefined);
}

async function memory(field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
}

const startRssBytes = await memory('VmRSS');
const { store, drive } = await openDriveAt(root, undefined, STATION_LEASE);
const user = { email, hex: 'ab'.repeat(32), npub: '', g1pub: null, gps: null };
await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    const name = `${prefix}-${i}.bin`;
    const held = hold === 'hold' && i === Number(count) - 1;
    const bytes = held ? neverEnding(name) : pseudoRandom(Number(size), name);
    const result = await drive.addStream(user, name, bytes, { kind: 'cli' });
    process.stdout.write(`${JSON.stringify({ path: result.entry.path, cid: result.entry.cid })}\n`);
  }),
);
// Gives the drive's lock back (and folds its log) before the store closes.
await drive.drain();
await store.close();
process.stdout.write(
  `${JSON.stringify({ done: true, peakRssBytes: await memory('VmHWM'), startRssBytes })}\n`,
);
