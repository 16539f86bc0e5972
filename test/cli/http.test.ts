import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceProcess, loopbackEnv } from '../e2e/service-process.js';
import { tempDir } from '../helpers/temp.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

interface Identity {
  email: string;
  npub: string;
  nsec: string;
}

describe('station http (signed calls to a running station)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let service: ServiceProcess;
  let base: string;
  let alice: Identity;
  let bob: Identity;

  /** The real CLI, in its own process, with the service's HOME (so the same DATA_ROOT). */
  const station = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'http', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir.path },
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  const json = async (...args: string[]) => {
    const answer = await station(...args, '--url', base);
    return { ...answer, body: answer.stdout ? (JSON.parse(answer.stdout) as Record<string, unknown>) : null };
  };
  const register = async (email: string) =>
    (await json('POST', '/g1nostr', '--json', JSON.stringify({ email }))).body as unknown as Identity;

  beforeAll(async () => {
    dir = await tempDir('http-cli-');
    service = startService({
      ...loopbackEnv(dir.path),
    });
    base = await service.listening;
    alice = await register('alice@example.org');
    bob = await register('bob@example.org');
  });
  afterAll(async () => {
    if (service?.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await dir?.cleanup();
  });

  it('uploads a file to the drive as a registered user, then lists and downloads it', async () => {
    const path = join(dir.path, 'notes.txt');
    const content = randomBytes(3 * 1024 * 1024).toString('base64');
    await writeFile(path, content);
    const upload = await json('POST', '/api/upload', '--as', alice.email, '-F', `file=@${path}`, '--include');
    expect(upload).toMatchObject({
      code: 0,
      body: { success: true, file_path: 'APP/uDRIVE/Documents/notes.txt' },
    });
    expect(upload.stderr).toMatch(/^HTTP\/1\.1 200 OK$/m);
    // Not a terminal: no progress line.
    expect(upload.stderr).not.toContain('\r');

    const listing = await json('GET', `/api/drive?npub=${alice.npub}`, '--as', alice.email);
    const files = (listing.body as { files: { path: string; sha256: string }[] }).files;
    expect(files).toEqual([
      expect.objectContaining({ path: 'Documents/notes.txt', sha256: sha256Hex(content) }),
    ]);
    const download = await station('GET', `/${sha256Hex(content)}.txt`, '--url', base);
    expect(download).toMatchObject({ code: 0, stdout: content });
  });

  it('signs two identical requests in the same second with different events, both accepted', async () => {
    const [first, second] = await Promise.all([
      json('GET', '/api/me', '--as', alice.email),
      json('GET', '/api/me', '--as', alice.email),
    ]);
    for (const answer of [first, second])
      expect(answer).toMatchObject({
        code: 0,
        body: { npub: alice.npub, auth_method: 'nip98', proof: true },
      });
  });

  it("exits 1 with the station's {detail, code} when another user's key acts on the first user's drive", async () => {
    const refused = await json(
      'POST',
      '/api/delete',
      '--as',
      bob.nsec,
      '--json',
      JSON.stringify({ npub: alice.npub, file_path: 'Documents/notes.txt' }),
    );
    expect(refused).toMatchObject({ code: 1, body: { code: 'NPUB_MISMATCH', detail: expect.any(String) } });
    const listing = await json('GET', `/api/drive?npub=${alice.npub}`);
    expect((listing.body as { total_files: number }).total_files).toBe(1);
  });

  it('prints a header that works once with a plain fetch, then is refused as a replay', async () => {
    const url = `${base}/api/me`;
    const printed = await station('GET', '/api/me', '--as', alice.email, '--print-header', '--url', base);
    expect(printed.stdout).toMatch(/^Nostr [A-Za-z0-9+/]+=*\n$/);
    const headers = { authorization: printed.stdout.trim() };
    const once = await fetch(url, { headers });
    expect(once.status).toBe(200);
    expect(await once.json()).toMatchObject({ npub: alice.npub });
    const again = await fetch(url, { headers });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ detail: expect.any(String), code: 'AUTH_REPLAYED' });
  });

  it('binds the exact bytes of a --json body in the payload tag of a printed header', async () => {
    const body = '{"npub": "' + alice.npub + '", "file_path": "Documents/none.txt"}';
    const printed = await station(
      'POST',
      '/api/delete',
      '--as',
      alice.email,
      '--json',
      body,
      '--print-header',
      '--url',
      base,
    );
    const event = JSON.parse(
      Buffer.from(printed.stdout.trim().slice('Nostr '.length), 'base64').toString(),
    ) as {
      tags: string[][];
    };
    expect(event.tags).toContainEqual(['payload', sha256Hex(body)]);
    const answer = await fetch(`${base}/api/delete`, {
      method: 'POST',
      body,
      headers: { authorization: printed.stdout.trim(), 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
  });

  it('prints a header for a multipart upload that another client builds itself', async () => {
    const path = join(dir.path, 'photo-notes.md');
    await writeFile(path, '# seen at the market\n');
    const printed = await station(
      'POST',
      '/api/upload',
      '--as',
      bob.email,
      '-F',
      `file=@${path}`,
      '--print-header',
      '--url',
      base,
    );
    const form = new FormData();
    form.append('file', new Blob([await readFile(path)]), 'photo-notes.md');
    const answer = await fetch(`${base}/api/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: printed.stdout.trim() },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      success: true,
      file_path: 'APP/uDRIVE/Documents/photo-notes.md',
    });
  });

  it('exits 2 on a usage error, 1 when no station answers', async () => {
    expect(await station('GET')).toMatchObject({ code: 2, stderr: expect.stringContaining('usage') });
    expect(await station('GET', '/api/me', '--as', 'nsec1nope')).toMatchObject({ code: 2 });
    expect(await station('GET', '/api/me', '--as', 'nobody@example.org', '--url', base)).toMatchObject({
      code: 2,
    });
    expect(await station('GET', '/health', '--url', 'http://127.0.0.1:9')).toMatchObject({ code: 1 });
  });

  it('reads a relative -F path from the folder `npm run station` was typed in, not the project folder', async () => {
    await writeFile(join(dir.path, 'relative.txt'), 'typed in another folder');
    // What npm sets for `npm run station -- …`: the script's name and the caller's folder (INIT_CWD).
    const answer = await run(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'http', 'POST', '/api/upload'].concat([
        '--as',
        alice.email,
        '-F',
        'file=@relative.txt',
        '--url',
        base,
      ]),
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir.path,
          npm_lifecycle_event: 'station',
          INIT_CWD: dir.path,
        },
      },
    );
    expect(JSON.parse(answer.stdout)).toMatchObject({ success: true, fileName: 'relative.txt' });
  });
});
