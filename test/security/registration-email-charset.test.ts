import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationEmail } from '../../src/identity/email.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const REFUSED: [string, string][] = [
  ['semicolon', 'a;reboot@example.org'],
  ['command substitution', '$(x)@example.org'],
  ['double quote', '"a"@example.org'],
  ['inner space', 'a b@example.org'],
  // atext, but a path separator: the directory would be two.
  ['slash', 'a+b/c=d@example.org'],
  // atext, but glob and pipe characters the directory rule and the scripts refuse.
  ['asterisk', 'a*b@example.org'],
  ['question mark', 'a?b@example.org'],
  ['pipe', 'a|b@example.org'],
  ['double dot', 'a..b@example.org'],
  ['trailing dot', 'a.@example.org'],
  ['NUL', 'a\u0000b@example.org'],
  ['RTL override', 'a\u202Egro.elpmaxe@example.org'],
  ['IDN domain', 'user@exämple.de'],
  ['non-ASCII local part', 'josé@example.org'],
  ['fullwidth solidus (NFKC: /)', 'a／b@example.org'],
  ['numeric top-level label', 'a@127.0.0.1'],
  ['leading dot', '.a@example.org'],
];

/**
 * E-mails are NFKC-normalised and restricted at registration to RFC 5322's dot-atom, without the characters
 * a path segment must not hold.
 */
describe('registration e-mails: NFKC and a dot-atom local part safe in a path', () => {
  let t: TestApp;
  const usersRoot = () => join(t.config.dataRoot, 'nostr');
  const entries = async () => (await readdir(usersRoot()).catch(() => [] as string[])).sort();

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const register = (email: string) => t.app.inject({ method: 'POST', url: '/g1nostr', payload: { email } });

  it.each(REFUSED)('refuses %s with 400 INVALID_EMAIL and creates nothing', async (_name, email) => {
    const before = await entries();
    const res = await register(email);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'INVALID_EMAIL', error: 'INVALID_EMAIL' });
    expect(await entries()).toEqual(before);
  });

  it('refuses the same addresses in the CLI path (the user store)', async () => {
    for (const [, email] of REFUSED) {
      await expect(t.deps.users.create({ email })).rejects.toMatchObject({ code: 'INVALID_EMAIL' });
    }
    expect((await entries()).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('accepts fullwidth input as its ASCII form (NFKC), and then as the same identity', async () => {
    const res = await register('ＡＬＩＣＥ＠ｅｘａｍｐｌｅ．ｏｒｇ');
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe('alice@example.org');
    expect(await entries()).toContain('alice@example.org');
    const again = await register('alice@example.org');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('USER_EXISTS');
  });

  it('accepts the rest of atext (quotes, $, &, backtick, braces…) as one directory under DATA_ROOT/nostr', async () => {
    const addresses = [
      "o'hara@example.org",
      'a`id`@example.org',
      'a$b&c@example.org',
      "x!#%'+=^_{}~-y@ex.org",
    ];
    for (const email of addresses) {
      const res = await register(email);
      expect(res.statusCode).toBe(200);
      expect(res.json().email).toBe(email);
    }
    expect(await entries()).toEqual(expect.arrayContaining(addresses));
  });

  it('accepts ordinary addresses and the xn-- form of an internationalised domain', () => {
    expect(registrationEmail(' First.Last+tag@Sub.Example-Site.org ')).toBe(
      'first.last+tag@sub.example-site.org',
    );
    expect(registrationEmail('a_b%c@xn--exmple-cua.de')).toBe('a_b%c@xn--exmple-cua.de');
  });
});
