import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { runCli } from './run-cli.js';

const COMMANDS = ['status', 'users', 'payments', 'scrape', 'drive', 'http', 'relay', 'kubo', 'gc'];

describe('station --help and exit codes', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await tempDir('cli-help-');
    env = { HOME: dir.path };
  });
  afterAll(() => dir.cleanup());

  it('lists every command with one line saying what it does, and exits 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const run = await runCli([flag], env);
      expect(run.code, flag).toBe(0);
      const lines = run.stdout.split('\n').filter((line) => /^ {2}\S/.test(line));
      expect(lines.map((line) => line.trim().split(/\s+/)[0])).toEqual(COMMANDS);
      for (const line of lines) expect(line.trim().split(/\s{2,}/)[1]?.length).toBeGreaterThan(10);
    }
  });

  it('gives each command its --help (and -h) on stdout with exit 0, without reading the configuration', async () => {
    // A bad variable would stop any command that loads the configuration (exit 78): help never does.
    const broken = { ...env, PORT: 'eighty' };
    for (const name of COMMANDS) {
      const run = await runCli([name, '--help'], broken);
      expect(run.code, `${name} --help: ${run.stderr}`).toBe(0);
      expect(run.stdout, name).toMatch(new RegExp(`^usage:[\\s\\S]*station ${name}`));
    }
    for (const args of [
      ['users', 'list', '-h'],
      ['http', 'GET', '/health', '-h'],
      ['help', 'gc'],
    ]) {
      const run = await runCli(args, broken);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^usage:/);
    }
  });

  it('exits 2 on a usage error: no command, an unknown one, an unknown option', async () => {
    const none = await runCli([], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: station <command>');
    const unknown = await runCli(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no command "frobnicate"');
    const option = await runCli(['users', 'list', '--bogus'], env);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/station users: .*--bogus[\s\S]*usage:/);
  });

  it('exits 78 naming the variable when the configuration is wrong', async () => {
    const run = await runCli(['users', 'list'], { ...env, PORT: 'eighty' });
    expect(run.code).toBe(78);
    expect(run.stderr).toContain('configuration error: PORT');
  });
});
