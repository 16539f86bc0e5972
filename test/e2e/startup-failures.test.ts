import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { canMountTmpfs } from '../helpers/tmpfs.js';
import { loopbackEnv, startService } from './service-process.js';

/** A port held by a program that is neither a station nor a relay: it closes every connection at once. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

interface Failure {
  code: number | null;
  /** What the service wrote on stderr. */
  stderr: string[];
  /** Its JSON log lines on stdout. */
  logged: { level?: number; setting?: string; msg?: string }[];
}

async function failedStart(env: Record<string, string>): Promise<Failure> {
  const service = startService(env);
  const stderr: string[] = [];
  service.child.stderr!.on('data', (chunk: Buffer) => stderr.push(...chunk.toString().split('\n')));
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 60_000);
  const code = await service.exited;
  clearTimeout(timer);
  const logged = service.lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Failure['logged'][number]];
    } catch {
      return [];
    }
  });
  return { code, stderr: stderr.filter((line) => line.trim() !== ''), logged };
}

/** Exit 78, one line on stderr naming `setting` (no stack), and the same as a fatal JSON log line. */
function expectOneLine(failure: Failure, setting: string, mentions: string | RegExp) {
  expect(failure.code, failure.stderr.join('\n')).toBe(78);
  const lines = failure.stderr.filter((line) => /^(cannot start|configuration error):/.test(line));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`${setting}:`);
  expect(lines[0]).toMatch(mentions);
  expect(failure.stderr.some((line) => /^\s+at /.test(line))).toBe(false);
  expect(failure.logged.filter((entry) => entry.level === 60)).toEqual([
    expect.objectContaining({ setting, msg: lines[0] }),
  ]);
}

describe('a start-up that a setting makes impossible: exit 78 and one line naming it', () => {
  const held: Server[] = [];
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  const mounts: string[] = [];
  afterEach(async () => {
    for (const server of held.splice(0)) await new Promise((resolve) => server.close(resolve));
    for (const mount of mounts.splice(0)) execFileSync('umount', [mount]);
    for (const dir of dirs.splice(0)) await dir.cleanup();
  });
  const home = async () => {
    const dir = await tempDir('startup-');
    dirs.push(dir);
    return dir.path;
  };
  const taken = async () => {
    const { port, server } = await holdPort();
    held.push(server);
    return port;
  };

  it('PORT in use', async () => {
    const port = await taken();
    const failure = await failedStart({ ...loopbackEnv(await home()), PORT: String(port) });
    expectOneLine(failure, 'PORT', `127.0.0.1:${port} is already in use`);
  });

  it('RELAY_URL in use by something that is not a relay (EMBEDDED_RELAY=auto)', async () => {
    const port = await taken();
    const env = { ...loopbackEnv(await home()), RELAY_URL: `ws://127.0.0.1:${port}`, EMBEDDED_RELAY: 'auto' };
    expectOneLine(await failedStart(env), 'RELAY_URL', `127.0.0.1:${port} is already in use`);
  });

  it('IPFS_GATEWAY in use: no start with explorer links to another program', async () => {
    const port = await taken();
    const env = { ...loopbackEnv(await home()), IPFS_GATEWAY: `http://127.0.0.1:${port}` };
    expectOneLine(await failedStart(env), 'IPFS_GATEWAY', `127.0.0.1:${port} is already in use`);
  });

  it('HOST misspelt, or not an address of this machine', async () => {
    const misspelt = await failedStart({ ...loopbackEnv(await home()), HOST: 'localhsot' });
    expectOneLine(misspelt, 'HOST', '"localhsot" does not resolve');
    const foreign = await failedStart({ ...loopbackEnv(await home()), HOST: '192.0.2.7' });
    expectOneLine(foreign, 'HOST', '192.0.2.7 is not an address of this machine');
  });

  it('DATA_ROOT or TMP_DIR that cannot be created', async () => {
    const dir = await home();
    await writeFile(join(dir, 'a-file'), '');
    const data = await failedStart({ ...loopbackEnv(dir), DATA_ROOT: join(dir, 'a-file', 'game') });
    expectOneLine(data, 'DATA_ROOT', /cannot be created or written .*ENOTDIR/);
    const tmp = await failedStart({ ...loopbackEnv(dir), TMP_DIR: join(dir, 'a-file', 'tmp') });
    expectOneLine(tmp, 'TMP_DIR', /cannot be created or written .*ENOTDIR/);
  });

  it.runIf(canMountTmpfs())('DATA_ROOT on a read-only file system', async () => {
    const dir = await home();
    const readOnly = join(dir, 'ro');
    await mkdir(readOnly);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', readOnly]);
    mounts.push(readOnly);
    const failure = await failedStart({ ...loopbackEnv(dir), DATA_ROOT: readOnly });
    expectOneLine(failure, 'DATA_ROOT', /cannot be created or written .*EROFS/);
  });

  it('a file the station needs that it cannot read (the station key)', async () => {
    const dir = await home();
    const dataRoot = join(dir, 'game');
    // A directory where the key file should be: reading it fails whoever runs the service, root included.
    await mkdir(join(dataRoot, 'station', '.secret.nostr'), { recursive: true });
    const failure = await failedStart({ ...loopbackEnv(dir), DATA_ROOT: dataRoot });
    expectOneLine(failure, 'DATA_ROOT', /\.secret\.nostr cannot be used \(EISDIR\)/);
  });
});
