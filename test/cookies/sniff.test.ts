import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { looksLikeNetscapeCookies } from '../../src/cookies/netscape.js';
import { mayHoldCookieText } from '../../src/cookies/sniff.js';
import { cookieFile, cookieLine } from './fixtures.js';

/** Texts the cookie test must see through, as bytes: headers and cookie lines in every case and wrapping. */
const COOKIE_TEXTS = [
  cookieFile([cookieLine('.youtube.com')]),
  cookieFile([cookieLine('.youtube.com')], { header: false, eol: '\r\n' }),
  '# HTTP Cookie File\n',
  '\ufeff# netscape http COOKIE file\n',
  '\u00ef\u00bb\u00bf#\u00a0Netscape HTTP Cookie File\n',
  'x\r\n#Http Cookie File\n',
  '.a.example\tTrUe\t/\tFALSE\t0\tname\tvalue\n',
  '#HttpOnly_.a.example\tfalse\t/\ttrue\t-1\tname\tvalue',
];

/** Text and binaries it must not mistake: near misses of each pattern. */
const OTHER_TEXTS = [
  '',
  'plain text with\ttabs\tbut no flags\n',
  'a\ttru\t/\tfals\t0\n',
  'a\ttrue /\tfalse 0\n',
  'cooki e file',
  '# HTTP Cokie File',
  'a\tfalse',
];

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('mayHoldCookieText', () => {
  it('passes every text the cookie test accepts, however it is cased, wrapped or encoded', () => {
    for (const text of COOKIE_TEXTS) {
      // As a file holds it: Latin-1 bytes when the text fits, else UTF-8 (a BOM written as such).
      const latin1Only = [...text].every((char) => char.charCodeAt(0) <= 0xff);
      const bytes = Buffer.from(text, latin1Only ? 'latin1' : 'utf8');
      expect(looksLikeNetscapeCookies(latin1(bytes)), text).toBe(true);
      expect(mayHoldCookieText(bytes), text).toBe(true);
      expect(looksLikeNetscapeCookies(bytes), text).toBe(true);
    }
  });

  it('answers as the decoded text would, for near misses and random binaries alike', () => {
    const cases = [
      ...OTHER_TEXTS.map((text) => Buffer.from(text, 'latin1')),
      ...Array.from({ length: 200 }, (_, i) => randomBytes(64 * 1024 - i)),
    ];
    for (const bytes of cases) {
      expect(looksLikeNetscapeCookies(bytes)).toBe(looksLikeNetscapeCookies(latin1(bytes)));
      if (!mayHoldCookieText(bytes)) expect(looksLikeNetscapeCookies(latin1(bytes))).toBe(false);
    }
    for (const text of OTHER_TEXTS) expect(mayHoldCookieText(Buffer.from(text, 'latin1')), text).toBe(false);
  });

  it('finds a pattern at the very end and in a view into a larger buffer', () => {
    const tail = Buffer.concat([
      randomBytes(1000).map((b) => (b === 9 || (b | 0x20) === 0x63 ? 0 : b)),
      Buffer.from('cookie'),
    ]);
    expect(mayHoldCookieText(tail)).toBe(true);
    expect(mayHoldCookieText(tail.subarray(0, tail.length - 1))).toBe(false);
    const inside = Buffer.from('xx\tfalse\tyy');
    expect(mayHoldCookieText(inside.subarray(2, 9))).toBe(true);
    expect(mayHoldCookieText(inside.subarray(2, 8))).toBe(false);
  });

  it('judges one head once: asked again (its staged mode, then its route’s cookie test), it answers from memory', () => {
    const head = Buffer.from(randomBytes(64 * 1024).map((b) => (b === 9 || (b | 0x20) === 0x63 ? 0 : b)));
    expect(mayHoldCookieText(head)).toBe(false);
    // Written over after the first look (which no caller does): the second answer shows no second scan.
    head.write('# Netscape HTTP Cookie File\n', 0, 'latin1');
    expect(mayHoldCookieText(head)).toBe(false);
    // The same bytes in another object are looked at afresh.
    expect(mayHoldCookieText(Buffer.from(head))).toBe(true);
  });
});
