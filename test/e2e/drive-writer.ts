/**
 * A drive writer process for the end-to-end tests: opens the drive service on `<root>` (embedded store in
 * `<root>/ipfs`, users in `<root>/nostr`) as the station does, uploads COUNT files of SIZE bytes to one
 * user's drive all at once, and prints one JSON line per upload as soon as it is acknowledged, then
 * `{"done":true,"peakRssBytes":…,"startRssBytes":…}` (peak from /proc: VmHWM).
 * Run: `node --import tsx test/e2e/drive-writer.ts <root> <email> <count> <size> <prefix>`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { DriveService } from '../../src/drive/service.js';
import { EmbeddedStore } from '../../src/drive/store/embedded.js';
import { pseudoRandom } from '../drive/helpers.js';

const [root, email, count, size, prefix] = process.argv.slice(2) as [string, string, string, string, string];

async function memory(field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
}

const startRssBytes = await memory('VmRSS');
const store = await EmbeddedStore.open(join(root, 'ipfs'));
const drive = new DriveService({
  store,
  users: { dirFor: (address: string) => join(root, 'nostr', address) },
  clock: { now: () => Date.now() },
  links: () => ({ api: 'http://127.0.0.1:54321', gateway: 'http://127.0.0.1:8080' }),
  logger: pino({ level: 'silent' }),
  quotaBytes: 1024 * 1024 * 1024 * 1024,
  stagingDir: join(root, '.drive-staging'),
});
const user = { email, hex: 'ab'.repeat(32), npub: '', g1pub: null, gps: null };
await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    const name = `${prefix}-${i}.bin`;
    const result = await drive.addStream(user, name, pseudoRandom(Number(size), name), { kind: 'cli' });
    process.stdout.write(`${JSON.stringify({ path: result.entry.path, cid: result.entry.cid })}\n`);
  }),
);
await store.close();
process.stdout.write(
  `${JSON.stringify({ done: true, peakRssBytes: await memory('VmHWM'), startRssBytes })}\n`,
);
