import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

describe('station CLI: users', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir.cleanup());

  const station = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir.path },
    });

  it('adds a user with given credentials and lists it', async () => {
    const added = await station(
      'users',
      'add',
      'cli@example.org',
      '--salt',
      'coucou',
      '--pepper',
      'coucou',
      '--lat',
      '43.6',
      '--lon',
      '1.44',
    );
    expect(JSON.parse(added.stdout)).toMatchObject({
      email: 'cli@example.org',
      hex: '9da638f3ff87f550efb32ca0d363f53047ead410e6748c19eb8ccb81ba3aff27',
    });
    const listed = await station('users', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ email: 'cli@example.org', gps: { lat: 43.6, lon: 1.44 } }),
    ]);
  });

  it('exits non-zero with a message for a duplicate or an unsafe e-mail', async () => {
    await expect(station('users', 'add', 'cli@example.org')).rejects.toMatchObject({ code: 1 });
    await expect(station('users', 'add', '../x@y.z')).rejects.toMatchObject({
      stderr: expect.stringContaining('e-mail'),
    });
  });
});
