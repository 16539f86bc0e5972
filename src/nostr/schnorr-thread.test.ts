import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { afterEach, describe, expect, it } from 'vitest';
import { SchnorrPool, SchnorrThread } from './schnorr-thread.js';
import { signEventOffThread } from './sign.js';
import { verificationStats, verifySignature, verifySignatureOffThread } from './verify.js';

const secretKey = generateSecretKey();
const note = (content: string, created_at = 1_800_000_000) =>
  finalizeEvent({ kind: 1, created_at, tags: [['t', 'station']], content }, secretKey);

describe('SchnorrThread', () => {
  const threads: SchnorrThread[] = [];
  const thread = () => {
    const made = new SchnorrThread();
    threads.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(threads.splice(0).map((made) => made.close()));
  });

  it('verifies signatures and ids there: a valid event passes, an altered one or a bad signature fails', async () => {
    const schnorr = thread();
    const good = note('hello');
    expect(await schnorr.verify(good)).toBe(true);
    expect(await schnorr.verify({ ...good, content: 'hullo' })).toBe(false);
    expect(
      await schnorr.verify({ ...good, sig: good.sig.replace(/^./, (c) => (c === '0' ? '1' : '0')) }),
    ).toBe(false);
  });

  it('signs events that nostr-tools verifies, under the key given', async () => {
    const signed = await thread().sign(
      { kind: 1063, created_at: 1, tags: [['x', 'ab']], content: 'Ẑen' },
      secretKey,
    );
    expect(signed?.pubkey).toBe(getPublicKey(secretKey));
    expect(verifyEvent({ ...signed! })).toBe(true);
  });

  it('sends a burst asked in one turn as one message, and answers each job its own verdict', async () => {
    const schnorr = thread();
    const events = Array.from({ length: 200 }, (_, i) => note(`n°${i}`));
    const forged = new Set([3, 77, 150]);
    const verdicts = await Promise.all(
      events.map((event, i) => schnorr.verify(forged.has(i) ? { ...event, content: 'forged' } : event)),
    );
    expect(verdicts).toEqual(events.map((_, i) => !forged.has(i)));
    expect(schnorr.stats).toEqual({ jobs: 200, messages: 1 });
  });

  it('a pool shares a burst between its threads, each job still answered its own verdict', async () => {
    const pool = new SchnorrPool(2);
    try {
      const events = Array.from({ length: 100 }, (_, i) => note(`pool n°${i}`));
      const verdicts = await Promise.all(
        events.map((event, i) => pool.verify(i === 42 ? { ...event, content: 'forged' } : event)),
      );
      expect(verdicts).toEqual(events.map((_, i) => i !== 42));
      expect(pool.threads.map((one) => one.stats)).toEqual([
        { jobs: 50, messages: 1 },
        { jobs: 50, messages: 1 },
      ]);
    } finally {
      await pool.close();
    }
  });

  it('never keeps a process alive: one that used the thread ends when its work is done', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'schnorr-exit-'));
    try {
      const script = join(dir, 'use.mts');
      const module = new URL('./schnorr-thread.ts', import.meta.url).href;
      await writeFile(
        script,
        `import { SchnorrThread } from ${JSON.stringify(module)};\n` +
          `const event = ${JSON.stringify(note('exit'))};\n` +
          `console.log(await new SchnorrThread().verify(event));\n`,
      );
      // Hanging here (the thread's port holding the event loop) fails the test by its timeout.
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
        cwd: process.cwd(),
      });
      expect(stdout.trim()).toBe('true');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers null for what cannot cross to the thread, and keeps serving the rest', async () => {
    const schnorr = thread();
    const odd = { ...note('odd'), tags: [['t', (() => 'x') as unknown as string]] };
    expect(await schnorr.verify(odd)).toBeNull();
    expect(await schnorr.verify(note('fine'))).toBe(true);
  });

  it('answers null once the thread is gone, so that callers check on their own thread', async () => {
    const schnorr = thread();
    const pending = schnorr.verify(note('in flight'));
    await schnorr.close();
    expect(await pending).toBeNull();
    expect(await schnorr.verify(note('after'))).toBeNull();
  });
});

describe('verifying and signing off the event loop', () => {
  it('keeps the verify-once cache and its counters, and still refuses a forged copy', async () => {
    const event = note('once', 1_800_000_123);
    const before = { ...verificationStats };
    expect(await verifySignatureOffThread(event)).toBe(true);
    expect(verifySignature(event)).toBe(true);
    expect(await verifySignatureOffThread({ ...event, content: 'forged' })).toBe(false);
    // One Schnorr check; the second look and the forged copy (its id no longer matches) need none.
    expect(verificationStats.checks - before.checks).toBe(1);
    expect(verificationStats.cacheHits - before.cacheHits).toBe(1);
    expect(await verifySignatureOffThread({ ...note('bad', 2), sig: note('x', 3).sig })).toBe(false);
    expect(verificationStats.failures - before.failures).toBe(1);
  });

  it('signs there and remembers the event as verified', async () => {
    const event = await signEventOffThread(
      { kind: 1, created_at: 1_800_000_000, tags: [], content: 'mine' },
      secretKey,
    );
    expect(verifyEvent({ ...event })).toBe(true);
    const before = { ...verificationStats };
    expect(await verifySignatureOffThread(event)).toBe(true);
    expect(verificationStats.checks).toBe(before.checks);
  });
});
