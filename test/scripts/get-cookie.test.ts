import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieLine, createStation, netscapeFile, runScript, type TestStation } from './station.js';

describe('scripts/get_cookie.sh', () => {
  let station: TestStation;
  let googleCookie: string;
  let youtubeCookie: string;

  beforeAll(async () => {
    station = await createStation();
    await station.addUser('alice@example.org');
    await station.addUser('bob@example.org');
    googleCookie = await station.writeCookie(
      'alice@example.org',
      'google.com',
      netscapeFile([cookieLine('.google.com', 'SID', 'g')]),
    );
    youtubeCookie = await station.writeCookie(
      'alice@example.org',
      'youtube.com',
      netscapeFile([cookieLine('.youtube.com', 'SID', 'y')]),
    );
  });
  afterAll(async () => station.close());

  const lookup = (email: string, domain: string, env: NodeJS.ProcessEnv = station.env) =>
    runScript('get_cookie.sh', [email, domain], env);

  it('prints the absolute path of the exact domain', async () => {
    const result = await lookup('alice@example.org', 'youtube.com');
    expect(result).toEqual({ code: 0, stdout: `${youtubeCookie}\n`, stderr: '' });
  });

  it('normalises case and a leading dot like cookie intake does', async () => {
    const result = await lookup('Alice@Example.org', '.YouTube.com');
    expect(result.stdout).toBe(`${youtubeCookie}\n`);
  });

  it('falls back to parent domains', async () => {
    expect((await lookup('alice@example.org', 'notebooklm.google.com')).stdout).toBe(`${googleCookie}\n`);
    expect((await lookup('alice@example.org', 'a.b.accounts.google.com')).stdout).toBe(`${googleCookie}\n`);
    expect((await lookup('alice@example.org', 'www.youtube.com')).stdout).toBe(`${youtubeCookie}\n`);
  });

  it('exits 1 with a short message when the user has no cookie for the domain or its parents', async () => {
    for (const [email, domain] of [
      ['alice@example.org', 'leboncoin.fr'],
      ['alice@example.org', 'com'],
      ['bob@example.org', 'youtube.com'],
      ['nobody@example.org', 'youtube.com'],
    ] as const) {
      const result = await lookup(email, domain);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/no cookie file/);
    }
  });

  it('does not follow a symbolic link planted in a user directory', async () => {
    const userDir = join(station.dataRoot, 'nostr', 'bob@example.org');
    const outside = join(station.root, 'outside.cookie');
    await writeFile(outside, 'secret');
    await symlink(outside, join(userDir, '.evil.com.cookie'));
    const result = await lookup('bob@example.org', 'evil.com');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
  });

  it('rejects unsafe e-mails and domains before touching the file system (exit 64)', async () => {
    const cases: [string, string][] = [
      ['../alice@example.org', 'youtube.com'],
      ['alice@example.org/../bob@example.org', 'youtube.com'],
      ['alice@example.org', '../../.secret.nostr'],
      ['alice@example.org', 'a/b.com'],
      ['alice@example.org', 'youtube..com'],
      ['alice@example.org', 'you tube.com'],
      ['alice@example.org', 'youtube.com\n/etc/passwd'],
      ['alice@example.org', '$(touch pwned).com'],
      ['alice@@example.org', 'youtube.com'],
      ['alice', 'youtube.com'],
      ['', 'youtube.com'],
      ['alice@example.org', ''],
    ];
    for (const [email, domain] of cases) {
      const result = await lookup(email, domain);
      expect({ email, domain, code: result.code }).toEqual({ email, domain, code: 64 });
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/refusing|usage/);
    }
  });

  it('exits 64 on a wrong number of arguments', async () => {
    const result = await runScript('get_cookie.sh', ['alice@example.org'], station.env);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/usage/);
  });

  it('reads DATA_ROOT like the service, defaulting to ~/.zen/game', async () => {
    const { DATA_ROOT: _unused, ...withoutDataRoot } = station.env;
    const home = join(station.root, 'home');
    const userDir = join(home, '.zen', 'game', 'nostr', 'carol@example.org');
    await mkdir(userDir, { recursive: true });
    await writeFile(join(userDir, '.example.net.cookie'), 'x', { mode: 0o600 });
    const result = await lookup('carol@example.org', 'www.example.net', { ...withoutDataRoot, HOME: home });
    expect(result.stdout).toBe(`${join(userDir, '.example.net.cookie')}\n`);
    const relative = await lookup('alice@example.org', 'youtube.com', { ...station.env, DATA_ROOT: 'game' });
    expect(relative.code).toBe(64);
  });
});
