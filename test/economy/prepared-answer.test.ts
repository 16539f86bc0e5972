import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pageOf, parsePaging, type Paging } from '../../src/economy/paging.js';
import {
  etagMatches,
  pickEncoding,
  PreparedAnswer,
  zlibCompressor,
  type Coding,
} from '../../src/economy/prepared-answer.js';
import { ReadoutCache } from '../../src/economy/readouts.js';

/** A compressor that counts its calls and answers when told to. */
function countingCompressor() {
  const calls: Coding[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const compress = async (coding: Coding, body: Buffer) => {
    calls.push(coding);
    await gate;
    return zlibCompressor(coding, body);
  };
  return { calls, compress, release: () => release() };
}

describe('PreparedAnswer', () => {
  const json = JSON.stringify({
    items: Array.from({ length: 500 }, (_, i) => ({ i, text: 'é'.repeat(i % 7) })),
  });

  it('compresses once per encoding, however many requests ask at once, and decodes to the same bytes', async () => {
    const counter = countingCompressor();
    const answer = new PreparedAnswer(json, counter.compress);
    const pending = [...Array(20)].flatMap(() => [answer.variant('br'), answer.variant('gzip')]);
    counter.release();
    const results = await Promise.all(pending);
    expect(counter.calls.sort()).toEqual(['br', 'gzip']);
    expect(brotliDecompressSync(results[0]!).toString()).toBe(json);
    expect(gunzipSync(results[1]!).toString()).toBe(json);
    await answer.variant('br');
    expect(counter.calls).toHaveLength(2);
  });

  it('leaves an encoding uncompressed after a failure, without trying again', async () => {
    let calls = 0;
    const answer = new PreparedAnswer(json, async () => {
      calls++;
      throw new Error('out of memory');
    });
    expect(await answer.variant('br')).toBeNull();
    expect(await answer.variant('br')).toBeNull();
    expect(calls).toBe(1);
  });

  it('gives each encoding its own strong ETag, derived from the bytes', () => {
    const a = new PreparedAnswer(json);
    const tags = (['identity', 'br', 'gzip'] as const).map((e) => a.etag(e));
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}(-br|-gzip)?"$/);
    expect(new PreparedAnswer(json).etag('br')).toBe(a.etag('br'));
    expect(new PreparedAnswer(json + ' ').etag('br')).not.toBe(a.etag('br'));
  });
});

describe('content negotiation', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['deflate', 'identity'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip;q=0.2', 'gzip'],
    ['identity', 'identity'],
    ['BR', 'br'],
    ['br;q=nonsense', 'br'],
    ['x-gzip', 'gzip'],
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });

  it.each([
    ['"abc-br"', true],
    ['W/"abc-br"', true],
    ['"zzz", "abc-br"', true],
    ['*', true],
    ['"abc"', false],
    ['"abc-gzip"', false],
    [undefined, false],
  ])('If-None-Match %j against "abc-br" → %s', (header, expected) => {
    expect(etagMatches(header, '"abc-br"')).toBe(expected);
  });
});

describe('ReadoutCache', () => {
  it('computes once per snapshot and key, and starts again for a new snapshot', () => {
    const cache = new ReadoutCache<{ n: number }>();
    let computed = 0;
    const compute = () => ({ report: { n: ++computed }, times: [] });
    const first = [1, 2, 3];
    expect(cache.get(first, 'all', compute)).toBe(cache.get(first, 'all', compute));
    expect(cache.get(first, '2024', compute).report.n).toBe(2);
    expect(cache.get([1, 2, 3], 'all', compute).report.n).toBe(3);
    expect(computed).toBe(3);
    const readout = cache.get(first, 'all', compute);
    expect(readout.answer()).toBe(readout.answer());
  });

  it('keeps a bounded number of variants per snapshot', () => {
    const cache = new ReadoutCache<{ key: string }>();
    const snapshot = {};
    let computed = 0;
    const compute = (key: string) => () => ({ report: { key: `${key}${++computed}` }, times: [] });
    for (let year = 2000; year < 2040; year++) cache.get(snapshot, String(year), compute(String(year)));
    cache.get(snapshot, '2039', compute('2039'));
    expect(computed).toBe(40);
    cache.get(snapshot, '2000', compute('2000'));
    expect(computed).toBe(41);
  });
});

describe('paging', () => {
  // Newest first, with ties: three items at 90, two at 70.
  const times = [100, 90, 90, 90, 80, 70, 70, 60];
  const items = times.map((t, i) => `${t}#${i}`);

  function walk(limit: number, list = items, at = times): string[] {
    const out: string[] = [];
    let paging: Paging | null = parsePaging({ limit: String(limit) });
    while (paging) {
      const page = pageOf(list, at, paging);
      out.push(...page.items);
      paging = page.next_cursor ? parsePaging({ limit: String(limit), cursor: page.next_cursor }) : null;
    }
    return out;
  }

  it.each([1, 2, 3, 4, 7, 8, 1000])('walks the whole list through ties, limit %i', (limit) => {
    expect(walk(limit)).toEqual(items);
  });

  it('a cursor names a time, so items arriving on top do not shift the next page', () => {
    const page = pageOf(items, times, parsePaging({ limit: '3' })!);
    expect(page.items).toEqual(['100#0', '90#1', '90#2']);
    const next = parsePaging({ limit: '3', cursor: page.next_cursor! })!;
    expect(pageOf(['new', ...items], [120, ...times], next).items).toEqual(['90#3', '80#4', '70#5']);
  });

  it('no parameters: no paging; a cursor alone: 100 items', () => {
    expect(parsePaging({})).toBeNull();
    const page = pageOf(items, times, parsePaging({ limit: '2' })!);
    expect(parsePaging({ cursor: page.next_cursor! })?.limit).toBe(100);
  });

  it.each([
    [{ limit: '0' }, 'INVALID_LIMIT'],
    [{ limit: '1001' }, 'INVALID_LIMIT'],
    [{ cursor: 'nope!' }, 'INVALID_CURSOR'],
    [{ cursor: Buffer.from('abc').toString('base64url') }, 'INVALID_CURSOR'],
    [{ cursor: Buffer.from('100.0').toString('base64url') }, 'INVALID_CURSOR'],
    [{ cursor: Buffer.from('-5.1').toString('base64url') }, 'INVALID_CURSOR'],
    [{ cursor: '' }, 'INVALID_CURSOR'],
  ])('%j → 400 %s', (query, code) => {
    expect(() => parsePaging(query)).toThrow(expect.objectContaining({ code }));
  });
});
