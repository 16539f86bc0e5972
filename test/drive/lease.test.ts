import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { register } from '../helpers/multipart.js';
import { upload } from './http.js';

describe('the station’s lease on a drive it writes', () => {
  it('keeps the drive locked, named for this process, between uploads, and gives it back on close', async () => {
    const t = await buildTestApp();
    const dana = await register(t, 'dana@example.org').catch(async (error: unknown) => {
      await t.close();
      throw error;
    });
    const lock = join(dana.dir, 'APP', 'uDRIVE', '.drive.lock');
    try {
      for (const name of ['a.txt', 'b.txt'])
        expect((await upload(t, dana, name, Buffer.from(name))).statusCode).toBe(200);
      // Kept after the answers (STATION_LEASE: given back only after a second without changes).
      expect((await stat(lock)).isDirectory()).toBe(true);
      expect(await readFile(join(lock, 'holder'), 'utf8')).toMatch(new RegExp(`:${process.pid}$`));
    } finally {
      await t.close();
    }
    await expect(stat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
