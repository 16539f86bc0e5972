import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { startService as startProcess, loopbackEnv } from './service-process.js';

const children: ChildProcess[] = [];

function startService(env: Record<string, string>) {
  const service = startProcess(env);
  children.push(service.child);
  return service;
}

const exitCode = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', resolve));

describe('the service process', () => {
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  afterEach(async () => {
    // A failed assertion must not leave a service running after the test.
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) await dir.cleanup();
  });

  it('starts on embedded defaults, answers /health, and stops cleanly on SIGTERM', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const { child, listening } = startService({
      ...loopbackEnv(dir.path),
    });
    const url = await listening;
    const health = async () => (await (await fetch(`${url}/health`)).json()) as { relay: string };
    await waitFor(async () => (await health()).relay === 'connected');
    expect(await health()).toMatchObject({ status: 'ok', relay: 'connected' });
    const registered = await fetch(`${url}/g1nostr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'e2e@example.org' }),
    });
    expect(registered.status).toBe(200);
    const exited = exitCode(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses to start on a bad variable, naming it', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const { child, lines } = startService({ HOME: dir.path, PORT: 'eighty' });
    expect(await exitCode(child)).toBe(78);
    expect(lines.join('\n')).toContain('PORT');
  });
});
