import { createHash } from 'node:crypto';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sizeRefusal, type SizeLimit } from '../../src/fs/head-bytes.js';
import { StagingArea } from '../../src/fs/staging.js';
import { tempDir } from '../helpers/temp.js';

async function* chunks(...parts: Array<string | Buffer>): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

/** A limit that counts how often it was asked, refusing only files whose head starts with `marker`. */
function countingLimit(maxBytes: number, marker: string) {
  const limit = {
    asked: 0,
    maxBytes,
    refuse(head: Buffer) {
      limit.asked += 1;
      return head.toString('latin1').startsWith(marker) ? new Error(`${marker} too large`) : null;
    },
  };
  return limit;
}

describe('StagingArea', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let staging: StagingArea;
  const files = () => readdir(join(dir.path, 'staging')).catch(() => [] as string[]);

  beforeEach(async () => {
    dir = await tempDir('staging-');
    staging = new StagingArea(join(dir.path, 'staging'), 4);
  });
  afterEach(() => dir.cleanup());

  it('streams to a private hidden file, hashing it and keeping only the head', async () => {
    const staged = await staging.receive(chunks('ab', 'cdef', 'gh'), []);
    expect(await readFile(staged.path, 'utf8')).toBe('abcdefgh');
    expect(staged).toMatchObject({
      size: 8,
      sha256: createHash('sha256').update('abcdefgh').digest('hex'),
      head: Buffer.from('abcd'),
    });
    expect((await stat(staged.path)).mode & 0o777).toBe(0o600);
    expect((await stat(staging.dir)).mode & 0o777).toBe(0o700);
    expect(await files()).toEqual([expect.stringMatching(/^\..*\.part$/)]);
  });

  it('keeps the head whatever the chunks: one, several, empty ones, or fewer bytes than the head', async () => {
    expect((await staging.receive(chunks('abcdefgh'), [])).head).toEqual(Buffer.from('abcd'));
    expect((await staging.receive(chunks('ab'), [])).head).toEqual(Buffer.from('ab'));
    expect((await staging.receive(chunks('a', '', 'b', 'c'), [])).head).toEqual(Buffer.from('abc'));
    expect((await staging.receive(chunks('a', 'bcdef', 'g'), [])).head).toEqual(Buffer.from('abcd'));
  });

  it('writes chunks of every size in order, tiny ones and ones past a write batch alike', async () => {
    const tiny = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26)));
    const large = Buffer.alloc(600 * 1024, 7);
    const expected = Buffer.concat([Buffer.from(tiny.join('')), large, Buffer.from('end')]);
    const staged = await staging.receive(chunks(...tiny, large, 'end'), []);
    expect((await readFile(staged.path)).equals(expected)).toBe(true);
    expect(staged.sha256).toBe(createHash('sha256').update(expected).digest('hex'));
  });

  it('discards a file moved into place without touching its old path or its new one', async () => {
    const staged = await staging.receive(chunks('moved'), []);
    const target = join(dir.path, 'kept.txt');
    await staging.moveTo(staged, target);
    // Whatever is at the old path now is not the staged file: a discard after the move leaves it alone.
    await writeFile(staged.path, 'someone else');
    await staging.discard(staged);
    expect(await readFile(target, 'utf8')).toBe('moved');
    expect(await readFile(staged.path, 'utf8')).toBe('someone else');
    const other = await staging.receive(chunks('not moved'), []);
    await staging.discard(other);
    expect(await files()).toEqual([`${staged.path.split('/').pop()}`]);
  });

  it('moves a staged file with the mode its place asks for, set before the move', async () => {
    const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
    // One made once complete (O_DSYNC), one made before its end (past a write batch): both private.
    const small = await staging.receive(chunks('plain ', 'text'), []);
    const large = await staging.receive(chunks(Buffer.alloc(300 * 1024, 'a')), []);
    expect([await modeOf(small.path), await modeOf(large.path)]).toEqual([0o600, 0o600]);
    const published = join(dir.path, 'published.bin');
    const kept = join(dir.path, 'kept.txt');
    await staging.moveTo(large, published, 0o644);
    await staging.moveTo(small, kept);
    expect([await modeOf(published), await modeOf(kept)]).toEqual([0o644, 0o600]);
  });

  it('makes a file with the mode its head earns, private when the head is not complete at creation', async () => {
    const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
    const asked: string[] = [];
    const heads: Buffer[] = [];
    const judged = new StagingArea(join(dir.path, 'judged'), 4, (head) => {
      heads.push(head);
      asked.push(head.toString('latin1'));
      return head.toString('latin1').startsWith('SECR') ? 0o600 : 0o644;
    });
    const plain = await judged.receive(chunks('plain ', 'text'), []);
    const secret = await judged.receive(chunks('SECRET'), []);
    const short = await judged.receive(chunks('ab'), []);
    // Past a write batch: made before its end, its head already complete.
    const large = await judged.receive(chunks(Buffer.alloc(300 * 1024, 'a')), []);
    // 64 one-byte chunks make a write batch: with a head larger than that, the file is made before its head
    // is complete, and stays private whatever `modeFor` would have said.
    const undecided = new StagingArea(join(dir.path, 'undecided'), 1024, () => 0o644);
    const tiny = await undecided.receive(chunks(...Array.from({ length: 100 }, () => 'x')), []);
    expect(asked).toEqual(['plai', 'SECR', 'ab', 'aaaa']);
    // The head judged is the one the staged file carries: what judged it (cookies/sniff.ts) remembers it.
    expect(heads.map((head, i) => head === [plain, secret, short, large][i]!.head)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // What a file asked to be 644 is made with here (the umask applies, as to every file made).
    await writeFile(join(dir.path, 'probe'), '', { mode: 0o644 });
    const readable = await modeOf(join(dir.path, 'probe'));
    expect(
      await Promise.all([plain, secret, short, large, tiny].map((staged) => modeOf(staged.path))),
    ).toEqual([readable, 0o600, readable, readable, 0o600]);
    expect([plain.mode, secret.mode, tiny.mode]).toEqual([0o644, 0o600, 0o600]);
    // Moved where its mode is wanted, it keeps it; moved where another is, it gets that one before the move.
    const published = join(dir.path, 'published.txt');
    const kept = join(dir.path, 'kept.txt');
    const widened = join(dir.path, 'widened.txt');
    await judged.moveTo(plain, published, 0o644);
    await judged.moveTo(large, kept, 0o600);
    await undecided.moveTo(tiny, widened, 0o644);
    expect([await modeOf(published), await modeOf(kept), await modeOf(widened)]).toEqual([
      0o644, 0o600, 0o644,
    ]);
  });

  it('aborts with the first limit that applies to the file, leaving nothing behind', async () => {
    const cookieLike = countingLimit(3, 'COOK');
    const quota = { maxBytes: 6, refuse: () => new Error('quota') };
    await expect(staging.receive(chunks('COOKIE', 'S'), [cookieLike, quota])).rejects.toThrow(
      'COOK too large',
    );
    await expect(staging.receive(chunks('plain ', 'text'), [cookieLike, quota])).rejects.toThrow('quota');
    expect(await files()).toEqual([]);
  });

  it('asks a limit that does not apply once the head is complete, not for every chunk', async () => {
    const cookieLike = countingLimit(2, 'COOK');
    const many = Array.from({ length: 100 }, () => 'xxxxxxxx');
    const staged = await staging.receive(chunks(...many), [cookieLike]);
    expect(staged.size).toBe(800);
    expect(cookieLike.asked).toBe(1);
  });

  it('leaves nothing behind when the source breaks', async () => {
    async function* broken() {
      yield Buffer.from('half');
      throw new Error('connection reset');
    }
    await expect(staging.receive(broken(), [])).rejects.toThrow('reset');
    expect(await files()).toEqual([]);
  });

  it('sweeps only files untouched for longer than asked', async () => {
    const kept = await staging.receive(chunks('fresh'), []);
    const old = join(staging.dir, '.old.part');
    await writeFile(old, 'left by a crash');
    const hourAgo = (Date.now() - 3_600_000) / 1000;
    await utimes(old, hourAgo, hourAgo);
    expect(await staging.sweep(60_000)).toBe(1);
    expect(await files()).toEqual([kept.path.slice(staging.dir.length + 1)]);
  });
});

describe('sizeRefusal', () => {
  it('names the first exceeded limit that applies, or nothing', () => {
    const limits: SizeLimit[] = [
      { maxBytes: 10, refuse: () => null },
      { maxBytes: 20, refuse: () => new Error('twenty') },
      { maxBytes: 5, refuse: () => new Error('five') },
    ];
    expect(sizeRefusal(limits, 5, Buffer.alloc(0))).toBeNull();
    expect(sizeRefusal(limits, 6, Buffer.alloc(0))?.message).toBe('five');
    expect(sizeRefusal(limits, 21, Buffer.alloc(0))?.message).toBe('twenty');
  });
});
