import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { runCli } from './run-cli.js';

describe('station lists: a header row, or a sentence when empty', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await tempDir('cli-lists-');
    env = { HOME: dir.path };
  });
  afterAll(() => dir.cleanup());

  it('says an empty list is empty, and --json stays an empty array', async () => {
    const users = await runCli(['users', 'list'], env);
    expect(users).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^no users on this station \(.*\)\n$/),
    });
    const payments = await runCli(['payments', 'list'], env);
    expect(payments).toMatchObject({ code: 0, stdout: expect.stringMatching(/^no payments in the journal/) });
    const failed = await runCli(['payments', 'list', '--status', 'failed'], env);
    expect(failed.stdout).toMatch(/^no failed payments in the journal/);
    expect(JSON.parse((await runCli(['payments', 'list', '--json'], env)).stdout)).toEqual([]);
    expect(JSON.parse((await runCli(['users', 'list', '--json'], env)).stdout)).toEqual([]);
  });

  it('prints a header row above the items', async () => {
    expect((await runCli(['users', 'add', 'list@example.org'], env)).code).toBe(0);
    const users = await runCli(['users', 'list'], env);
    expect(users.stdout.trim().split('\n')).toEqual([
      'email\tnpub\tg1pub',
      expect.stringMatching(/^list@example\.org\tnpub1\w+\tg1\w+$/),
    ]);
    const drive = await runCli(['drive', 'ls', '--user', 'list@example.org'], env);
    expect(drive.stdout.trim().split('\n')).toEqual(['the drive of list@example.org is empty', 'root\t0\t-']);
  });
});
