import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesAllExpired } from '../../../src/cookies/scraper/expiry.js';
import { tempDir } from '../../helpers/temp.js';

const NOW = 1_900_000_000;
const line = (host: string, expiry: number, name = 'SID') =>
  [host, 'TRUE', '/', 'TRUE', String(expiry), name, 'value'].join('\t');

describe('cookiesAllExpired reads a cookie file as cookie intake does', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const file = async (name: string, content: string | Buffer) => {
    const path = join(dir.path, name);
    await writeFile(path, content, { mode: 0o600 });
    return path;
  };
  beforeAll(async () => {
    dir = await tempDir('expiry-');
  });
  afterAll(async () => dir.cleanup());

  it('is true only when every cookie, #HttpOnly_ ones included, expired before now', async () => {
    const expired = [
      '# Netscape HTTP Cookie File',
      '# a comment',
      '',
      line('.example.org', NOW - 10),
      `#HttpOnly_${line('.example.org', NOW - 20)}`,
    ];
    expect(await cookiesAllExpired(await file('expired', `${expired.join('\n')}\n`), NOW)).toBe(true);
    const liveHttpOnly = [...expired, `#HttpOnly_${line('.example.org', NOW + 10)}`];
    expect(await cookiesAllExpired(await file('live-httponly', liveHttpOnly.join('\n')), NOW)).toBe(false);
  });

  it('accepts a BOM and CRLF line ends', async () => {
    const content = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`${line('.example.org', NOW - 1)}\r\n${line('www.example.org', NOW - 2)}\r\n`),
    ]);
    expect(await cookiesAllExpired(await file('bom-crlf', content), NOW)).toBe(true);
  });

  it('a session cookie (expiry 0) is never expired; a file without cookies is not either', async () => {
    const session = `${line('.example.org', NOW - 10)}\n${line('.example.org', 0)}\n`;
    expect(await cookiesAllExpired(await file('session', session), NOW)).toBe(false);
    expect(await cookiesAllExpired(await file('empty', '# Netscape HTTP Cookie File\n'), NOW)).toBe(false);
  });

  it('does not follow a symbolic link, nor fail on a missing file', async () => {
    const target = await file('target', `${line('.example.org', NOW - 10)}\n`);
    await symlink(target, join(dir.path, 'link'));
    expect(await cookiesAllExpired(target, NOW)).toBe(true);
    expect(await cookiesAllExpired(join(dir.path, 'link'), NOW)).toBe(false);
    expect(await cookiesAllExpired(join(dir.path, 'missing'), NOW)).toBe(false);
  });
});
