import { randomBytes, randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines, scanCookieBytes, scanCookieStream } from '../../src/cookies/files.js';
import { domainAndParents, normaliseCookieHost, siteOf } from '../../src/cookies/hosts.js';
import {
  classifyLine,
  looksLikeNetscapeCookies,
  scanCookieText,
  wellFormedCookieLine,
} from '../../src/cookies/netscape.js';
import { StationError } from '../../src/errors.js';
import { cookieLine, cookieFile } from './fixtures.js';

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof StationError) return error.code;
    throw error;
  }
  return undefined;
}

describe('Netscape cookie lines', () => {
  it('reads the 7 fields, #HttpOnly_ lines as cookies, and comments as comments', () => {
    expect(classifyLine(cookieLine('.youtube.com', { expires: 1_900_000_000 }))).toEqual({
      kind: 'cookie',
      hostColumn: '.youtube.com',
      httpOnly: false,
      expires: 1_900_000_000,
    });
    expect(classifyLine(`#HttpOnly_${cookieLine('www.youtube.com')}`)).toMatchObject({
      kind: 'cookie',
      hostColumn: 'www.youtube.com',
      httpOnly: true,
    });
    expect(classifyLine('# Netscape HTTP Cookie File')).toEqual({ kind: 'comment', header: true });
    expect(classifyLine('# This is a generated file!')).toEqual({ kind: 'comment', header: false });
    expect(classifyLine('  \r')).toEqual({ kind: 'blank' });
  });

  it('accepts CRLF, a missing empty value, float expiries; refuses other shapes', () => {
    expect(classifyLine(`${cookieLine('a.com')}\r`)).toMatchObject({ kind: 'cookie', hostColumn: 'a.com' });
    expect(classifyLine('a.com\tFALSE\t/\tFALSE\t0\tname')).toMatchObject({ kind: 'cookie', expires: 0 });
    expect(classifyLine('a.com\tTRUE\t/\tTRUE\t1900000000.75\tn\tv')).toMatchObject({
      expires: 1_900_000_000,
    });
    expect(classifyLine('a.com\tyes\t/\tTRUE\t0\tn\tv').kind).toBe('malformed');
    expect(classifyLine('a.com\tTRUE\t/\tTRUE\tsoon\tn\tv').kind).toBe('malformed');
    expect(classifyLine('name,value,domain').kind).toBe('malformed');
  });
});

describe('the usual line, read in one match', () => {
  it('reads the usual lines, and reads nothing classifyLine would read otherwise', () => {
    expect(wellFormedCookieLine(cookieLine('.youtube.com', { expires: 2_000_000_000 }))).toEqual({
      hostColumn: '.youtube.com',
      expires: 2_000_000_000,
    });
    expect(wellFormedCookieLine('#HttpOnly_.a.com\tTRUE\t/\tFALSE\t0\tn\tv')?.hostColumn).toBe('.a.com');
    // Random lines: 4 to 8 TAB-separated fields, each usually of its column's shape and sometimes made of
    // the pieces that decide a line's kind. Every line the match reads is a cookie with the same host column
    // and expiry by the full rules.
    const pieces = [
      '#HttpOnly_',
      '#httponly_',
      '#',
      '.a.com',
      'x',
      ' ',
      '\t',
      'TRUE',
      'false',
      'TRUE ',
      '0',
      '-5',
      '12.5',
      '1e3',
      '99999999999999999999999',
      '\r',
      '/',
      '',
    ];
    const columns = [
      ['.a.com', '#HttpOnly_.a.com', '#httponly_#x', '#x', ' ', ''],
      ['TRUE', 'false', 'True'],
      ['/', '', '/a b'],
      ['FALSE', 'true'],
      ['0', '-1', '1900000000', '12.5', '1.', '99999999999999999999', '999999999999999999999', '1e3'],
      ['SID', ''],
      ['v', '', 'v\r'],
    ];
    const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)] as T;
    const noise = () => Array.from({ length: randomInt(0, 3) }, () => pick(pieces)).join('');
    const randomLine = () =>
      Array.from({ length: randomInt(4, 9) }, (_, i) =>
        randomInt(4) > 0 && columns[i] ? pick(columns[i]) : noise(),
      ).join('\t');
    let read = 0;
    for (let i = 0; i < 20_000; i++) {
      const line = randomLine();
      const fast = wellFormedCookieLine(line);
      if (!fast) continue;
      read += 1;
      const full = classifyLine(line);
      expect(full, JSON.stringify(line)).toMatchObject({ kind: 'cookie', ...fast });
    }
    expect(read).toBeGreaterThan(200);
  });
});

describe('cookie file detection', () => {
  it('recognises a header, data lines, #HttpOnly_ lines and a BOM, whatever the file is called', () => {
    expect(looksLikeNetscapeCookies('# Netscape HTTP Cookie File\n')).toBe(true);
    expect(looksLikeNetscapeCookies(`\ufeff${cookieLine('a.com')}\r\n`)).toBe(true);
    expect(
      looksLikeNetscapeCookies(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('# HTTP Cookie File\n')])),
    ).toBe(true);
    expect(looksLikeNetscapeCookies(`# exported\n#HttpOnly_${cookieLine('a.com')}\n`)).toBe(true);
  });

  it('does not mistake ordinary files for cookie files', () => {
    expect(
      looksLikeNetscapeCookies('Hello, this is a text document.\nWith\ttabs\tin\tit\tbut\tno\tflags\n'),
    ).toBe(false);
    expect(
      looksLikeNetscapeCookies(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])),
    ).toBe(false);
    expect(looksLikeNetscapeCookies('# a markdown title\n\nsome text\n')).toBe(false);
  });

  it('finds a cookie line anywhere in binary bytes (a tar of cookies.txt), and answers as a line-by-line scan', () => {
    const tar = Buffer.concat([
      Buffer.alloc(512),
      Buffer.from(`${cookieLine('a.com')}\n`),
      Buffer.alloc(100),
    ]);
    expect(looksLikeNetscapeCookies(tar)).toBe(true);
    expect(looksLikeNetscapeCookies(randomBytes(64 * 1024))).toBe(false);
    // The quick pre-check must never turn away what the line-by-line definition calls a cookie file.
    const pick = <T>(choices: readonly T[]) => choices[randomInt(choices.length)]!;
    const field = [
      ['a.com', '', '#HttpOnly_a.com', '# Netscape HTTP Cookie File', 'x'],
      ['TRUE', 'false', 'yes', ''],
      ['/', '', '/a b'],
      ['TRUE', 'FALSE', 'no'],
      ['0', '-1', '1.5', 'x', '', ' 1', '99999999999999999999999'],
      ['n'],
      ['v', ''],
    ];
    const line = () =>
      field.map(pick).reduce((text, next) => text + pick(['\t', '\t', '\t', ' ', '\n', '\r\n']) + next);
    const bySlowScan = (text: string) =>
      text.split('\n').some((line) => {
        const kind = classifyLine(line);
        return kind.kind === 'cookie' || (kind.kind === 'comment' && kind.header);
      });
    let cookies = 0;
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: 1 + randomInt(3) }, line).join(pick(['\n', '\x00', '\r\n']));
      const expected = bySlowScan(text);
      cookies += expected ? 1 : 0;
      expect(looksLikeNetscapeCookies(text), JSON.stringify(text)).toBe(expected);
    }
    expect(cookies).toBeGreaterThan(100);
  });
});

describe('domains', () => {
  it('normalises column 1 and refuses anything that is not a host name', () => {
    expect(normaliseCookieHost('.WWW.YouTube.com')).toBe('www.youtube.com');
    for (const bad of [
      '../../x',
      'a/b.com',
      'a\\b.com',
      'a..b.com',
      'a b.com',
      'a\u0001.com',
      '..',
      '.',
      '',
      'é.com',
    ]) {
      expect(normaliseCookieHost(bad)).toBeNull();
    }
  });

  it('groups hosts by registrable domain with the Public Suffix List', () => {
    expect(siteOf('www.youtube.com')).toEqual({ ok: true, domain: 'youtube.com' });
    expect(siteOf('bbc.co.uk')).toEqual({ ok: true, domain: 'bbc.co.uk' });
    expect(siteOf('a.github.io')).toEqual({ ok: true, domain: 'a.github.io' });
    expect(siteOf('localhost')).toEqual({ ok: true, domain: 'localhost' });
    expect(siteOf('192.168.1.10')).toEqual({ ok: true, domain: '192.168.1.10' });
    expect(siteOf('co.uk')).toEqual({ ok: false, reason: 'public-suffix' });
  });

  it('lists parent domains down to the registrable level', () => {
    expect(domainAndParents('notebooklm.google.com')).toEqual(['notebooklm.google.com', 'google.com']);
    expect(domainAndParents('localhost')).toEqual(['localhost']);
    expect(domainAndParents('10.0.0.1')).toEqual(['10.0.0.1']);
  });
});

describe('scanning whole files', () => {
  it('finds one domain for a domain and its subdomains, and the earliest persistent expiry', () => {
    const scan = scanCookieText(
      cookieFile([
        cookieLine('.youtube.com', { expires: 1_900_000_500 }),
        cookieLine('www.youtube.com', { expires: 0 }),
        `#HttpOnly_${cookieLine('.youtube.com', { expires: 1_900_000_000 })}`,
      ]),
    );
    expect(scan).toEqual({
      cookies: 3,
      header: true,
      domains: ['youtube.com'],
      moreDomains: false,
      earliestExpiry: 1_900_000_000,
    });
  });

  it('reports every registrable domain of a multi-domain file', () => {
    const scan = scanCookieText(cookieFile([cookieLine('accounts.google.com'), cookieLine('.youtube.com')]));
    expect(scan.domains).toEqual(['google.com', 'youtube.com']);
  });

  it('refuses invalid hosts, public suffixes and malformed lines by line number', () => {
    expect(errorCode(() => scanCookieText(cookieFile([cookieLine('../../x')])))).toBe(
      'INVALID_COOKIE_DOMAIN',
    );
    expect(errorCode(() => scanCookieText(cookieFile([cookieLine('.co.uk')])))).toBe('PUBLIC_SUFFIX_COOKIE');
    expect(errorCode(() => scanCookieText(cookieFile(['not a cookie line'])))).toBe('MALFORMED_COOKIE_LINE');
  });

  it('never puts line content in an error detail', () => {
    const secret = 'SESSIONSECRET123';
    try {
      scanCookieText(`# Netscape HTTP Cookie File\nbad..host\tTRUE\t/\tTRUE\t0\tSID\t${secret}\n`);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('Line 2');
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('splits streamed chunks on LF across chunk boundaries and bounds line length', async () => {
    const text = cookieFile([cookieLine('a.example.com'), cookieLine('b.example.com')]);
    const chunks = [...Buffer.from(text)].map((byte) => Buffer.from([byte]));
    const scan = await scanCookieStream(Readable.from(chunks));
    expect(scan).toMatchObject({ cookies: 2, domains: ['example.com'] });
    const lines = readLines(Readable.from([Buffer.alloc(100, 0x41)]), 50);
    await expect(lines.next()).rejects.toMatchObject({ code: 'COOKIE_LINE_TOO_LONG' });
  });

  it('scans a file held in memory exactly as the stream of its bytes, errors included', async () => {
    const outcome = async (scan: () => unknown) => {
      try {
        return { scan: await scan() };
      } catch (error) {
        return { code: (error as StationError).code, message: (error as Error).message };
      }
    };
    const hosts = ['.youtube.com', 'www.youtube.com', 'a.github.io', 'b.github.io', 'co.uk', 'bad..host'];
    const texts = [
      '',
      '\n\n',
      cookieFile([cookieLine('.youtube.com'), cookieLine('.youtube.com')]),
      `\ufeff${cookieFile([cookieLine('.youtube.com')])}`.replace(/\n/g, '\r\n'),
      cookieFile([cookieLine('a.example.com')]).slice(0, -1),
      `x\n${'A'.repeat(100)}`,
    ];
    // Random files: the same host on consecutive lines (the scanner's remembered site), then another.
    for (let i = 0; i < 200; i++) {
      const lines = Array.from({ length: randomInt(1, 8) }, () =>
        randomInt(10) === 0 ? 'not a cookie line' : cookieLine(hosts[randomInt(hosts.length)]!),
      );
      texts.push(cookieFile(lines));
    }
    for (const text of texts) {
      const bytes = Buffer.from(text, 'utf8');
      expect(await outcome(() => scanCookieBytes(bytes, 50 + 64))).toEqual(
        await outcome(() => scanCookieStream(Readable.from([bytes]))),
      );
    }
    expect(() => scanCookieBytes(Buffer.from(`# comment\n${'A'.repeat(100)}`), 50)).toThrow(
      expect.objectContaining({ code: 'COOKIE_LINE_TOO_LONG', message: expect.stringContaining('Line 2') }),
    );
  });
});
