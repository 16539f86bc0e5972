import { loopbackEnv } from './service-process.js';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'main.ts');

/** Output lines of the service until its "listening" line, then the process group is stopped. */
function firstLines(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const done = new Promise<string[]>((resolve, reject) => {
    const take = (line: string) => {
      lines.push(line);
      if (line.includes('station service listening')) resolve(lines);
    };
    createInterface({ input: child.stdout! }).on('line', take);
    createInterface({ input: child.stderr! }).on('line', take);
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${lines.join('\n')}`)));
  });
  return { done, stop };
}

describe('log lines for people and for machines', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function environment(extra: Record<string, string> = {}) {
    const dir = await tempDir();
    cleanups.push(() => dir.cleanup());
    return {
      ...loopbackEnv(dir.path),
      ...extra,
    };
  }

  it('prints pretty, local-time lines on a terminal (under a pseudo-terminal)', async () => {
    const env = await environment({ TERM: 'xterm' });
    // script(1) gives the service a pseudo-terminal as stdout, as an operator's shell does.
    const command = `exec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(MAIN)}`;
    const run = firstLines('script', ['-qfec', command, '/dev/null'], env);
    cleanups.push(run.stop);
    const lines = await run.done;
    const listening = lines.find((line) => line.includes('station service listening'))!;
    expect(listening.trimStart().startsWith('{')).toBe(false);
    // Local time of day, a coloured level name, the message: `[12:34:56.789] INFO: …`.
    expect(listening).toMatch(/\[\d{2}:\d{2}:\d{2}\.\d{3}\]/);
    expect(listening).toContain('INFO');
    expect(listening).toContain('\u001b['); // ANSI colour
    expect(lines.every((line) => !line.trimStart().startsWith('{"level"'))).toBe(true);
  });

  it('prints JSON lines when stdout is not a terminal, and LOG_FORMAT=pretty overrides it', async () => {
    const json = firstLines(process.execPath, ['--import', 'tsx', MAIN], await environment());
    cleanups.push(json.stop);
    const lines = (await json.done).filter((line) => line.startsWith('{'));
    const listening = lines.map((line) => JSON.parse(line) as { msg: string; level: number; time: number });
    expect(listening.find((entry) => entry.msg === 'station service listening')).toMatchObject({ level: 30 });
    json.stop();

    const pretty = firstLines(
      process.execPath,
      ['--import', 'tsx', MAIN],
      await environment({ LOG_FORMAT: 'pretty' }),
    );
    cleanups.push(pretty.stop);
    const prettyLines = await pretty.done;
    const line = prettyLines.find((l) => l.includes('station service listening'))!;
    expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO/);
    // Not a terminal: no colour codes in a file or a pipe.
    expect(line).not.toContain('\u001b[');
  });
});
