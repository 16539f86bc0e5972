/**
 * Child process of test/e2e/memory.test.ts: `write <dir> <MiB>` fills an LMDB environment and exits; `read
 * <dir>` starts the memory watchdog with a limit 128 MiB above its own unmapped memory, reads every value back
 * through LMDB's map (so the resident set grows by file-backed pages), samples, and prints one JSON line.
 */
import { open } from 'lmdb';
import { pino } from 'pino';
import { readMemory, unmappedBytes } from '../../src/process/memory.js';
import { startMemoryWatchdog, type MemoryDecision } from '../../src/process/memory-watchdog.js';

const VALUE_BYTES = 1_000;
const [mode, path, megabytes] = process.argv.slice(2);

if (mode === 'write') {
  const db = open<Buffer, number>({ path, encoding: 'binary', noSync: true });
  const count = Math.ceil((Number(megabytes) * 1024 * 1024) / VALUE_BYTES);
  const value = Buffer.alloc(VALUE_BYTES);
  // Several transactions: one would hold every dirty page in this process's anonymous memory until commit.
  for (let start = 0; start < count; start += 10_000) {
    db.transactionSync(() => {
      for (let i = start; i < Math.min(count, start + 10_000); i++) {
        value.writeUInt32BE(i);
        db.putSync(i, value);
      }
    });
  }
  await db.close();
  console.log(JSON.stringify({ written: count }));
} else if (mode === 'read') {
  const before = await readMemory();
  const limitBytes = unmappedBytes(before) + 128 * 1024 * 1024;
  let fired = 0;
  const watchdog = startMemoryWatchdog({
    limitBytes,
    logger: pino({ level: 'silent' }),
    onLimit: () => fired++,
    samplesOverLimit: 3,
  });
  const db = open<Buffer, number>({ path, encoding: 'binary', readOnly: true });
  let valuesRead = 0;
  let bytesRead = 0;
  for (const key of db.getKeys()) {
    // A view of LMDB's reusable buffer: no copy kept, nothing for the heap to hold.
    bytesRead += db.getBinaryFast(key)?.length ?? 0;
    valuesRead++;
  }
  const decisions: MemoryDecision[] = [];
  for (let i = 0; i < 5; i++) decisions.push(await watchdog.sample());
  const after = await readMemory();
  watchdog.stop();
  console.log(JSON.stringify({ before, after, limitBytes, valuesRead, bytesRead, decisions, fired }));
  await db.close();
}
