/**
 * A drive writer process for the end-to-end tests: opens the drive's services on `<root>` laid out as a
 * station's DATA_ROOT (openDriveAt: the index and embedded store in `<root>/ipfs-store`, users in
 * `<root>/nostr`), as a station process does, uploads COUNT files of SIZE bytes to one user's drive all at
 * once, and prints one JSON line per upload as soon as it is answered, then closes the services and prints
 * `{"done":true,"peakRssBytes":…,"startRssBytes":…}` (peak from /proc: VmHWM). Several writers on one root
 * are the processes of a PM2 cluster: each change commits only on the head it was computed from.
 * Run: `node --import tsx test/e2e/drive-writer.ts <root> <email> <count> <size> <prefix> [hold]`. With
 * `hold`, the last upload's bytes never end: the burst cannot finish, whatever the machine's speed, before
 * the test kills the process in its middle.
 */
import { readFile } from 'node:fs/promises';
import { openDriveAt } from '../drive/drive-fixture.js';
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
const services = await openDriveAt(root, { quotaBytes: 100 * 1024 ** 3 });
const user = { email, hex: 'ab'.repeat(32), npub: '', g1pub: null, gps: null };
await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    const name = `${prefix}-${i}.bin`;
    const held = hold === 'hold' && i === Number(count) - 1;
    const bytes = held ? neverEnding(name) : pseudoRandom(Number(size), name);
    const result = await services.drive.addStream(user, name, bytes, { kind: 'cli' });
    process.stdout.write(`${JSON.stringify({ path: result.entry.path, cid: result.entry.cid })}\n`);
  }),
);
// Waits for the changes in progress and writes the drive's manifest.json export before the stores close.
await services.close();
process.stdout.write(
  `${JSON.stringify({ done: true, peakRssBytes: await memory('VmHWM'), startRssBytes })}\n`,
);
