import { createHash } from 'node:crypto';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StagingArea, sizeRefusal, type SizeLimit } from '../../src/fs/staging.js';
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
