import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { authorizationHeader, signEvent, type TestKey } from '../helpers/nostr.js';
import { register } from '../helpers/relay-station.js';
import { openDriveAt } from './drive-fixture.js';
import { once_ } from './helpers.js';
import { upload } from './http.js';
import { canMountTmpfs } from '../helpers/tmpfs.js';

/**
 * The station's DATA_ROOT on a small tmpfs, then filled up: the drive's index and store, its staging area,
 * the drives and the station's own state all meet the full disk, as they would on a station.
 */
describe.skipIf(!canMountTmpfs())('a full disk', () => {
  let mountPoint: string;
  let dataRoot: string;
  let t: TestApp;
  let key: TestKey;
  const filler = () => join(mountPoint, 'filler');
  /** Takes every byte left (the station's own writes meanwhile find none). */
  const fill = () => {
    const { bavail, bsize } = statfsSync(mountPoint);
    writeFileSync(filler(), Buffer.alloc(bavail * bsize));
  };

  beforeAll(async () => {
    mountPoint = mkdtempSync(join(tmpdir(), 'tmpfs-drive-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint]);
    dataRoot = join(mountPoint, 'game');
    t = await buildTestApp({ env: { DATA_ROOT: dataRoot } });
    key = await register(t, 'full@example.org');
  });
  afterAll(async () => {
    try {
      await t?.close();
    } finally {
      // Lazily when something still holds a file there (a failed close): the mount never outlives the test.
      execFileSync('umount', ['--lazy', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it('fails a change with nothing written, answers 507 to drive and Blossom uploads, and recovers', async () => {
    // lmdb-js logs a failed commit itself; the test checks what the drive makes of it.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const user = (await t.deps.users.findByEmail('full@example.org'))!;
      const { drive, reads, db } = t.app.driveServices;
      expect((await upload(t, key, 'first.txt', 'before the disk filled up')).statusCode).toBe(200);
      const before = await drive.list(user);
      const version = reads.head(user.hex)!.version;
      // Received while there was room, committed once there is none: the change's one transaction fails.
      const staged = await drive.stageFor(user, once_(randomBytes(20_000)));
      const intents = db.intents.getKeysCount();
      fill();
      const failed = await drive
        .commit(user, staged, { fileName: 'late.bin', source: { kind: 'cli' } })
        .catch((error: unknown) => error);
      expect(failed).toMatchObject({ code: 'ENOSPC' });
      expect(reads.head(user.hex)!.version).toBe(version);
      expect(await drive.list(user)).toEqual(before);
      expect(await readdir(join(drive.driveDir(user), 'Documents'))).toEqual(['first.txt']);
      expect(await readdir(drive.staging.dir)).toEqual([]);
      expect(db.intents.getKeysCount()).toBe(intents);

      // Over HTTP: 507, and nothing left behind either.
      const form = await upload(t, key, 'photo.jpg', randomBytes(2000));
      expect(form.statusCode).toBe(507);
      expect(form.json()).toEqual({
        detail: expect.stringContaining('disk is full'),
        code: 'INSUFFICIENT_STORAGE',
      });
      const bytes = randomBytes(3000);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const expiration = String(Math.floor(Date.now() / 1000) + 600);
      const token = signEvent(key, {
        kind: 24242,
        tags: [
          ['t', 'upload'],
          ['x', sha256],
          ['expiration', expiration],
        ],
      });
      const put = () =>
        t.app.inject({
          method: 'PUT',
          url: '/upload',
          payload: bytes,
          headers: { authorization: authorizationHeader(token) },
        });
      const refused = await put();
      expect(refused.statusCode).toBe(507);
      expect(refused.headers['x-reason']).toContain('disk is full');
      expect((await drive.list(user)).files).toEqual(before.files);
      expect(reads.head(user.hex)!.version).toBe(version);
      expect(await readdir(drive.staging.dir)).toEqual([]);

      // Room again: the token was not spent on a refused upload, and the drive takes changes again.
      rmSync(filler());
      const stored = await put();
      expect(stored.statusCode).toBe(201);
      expect((await upload(t, key, 'after.txt', 'after')).statusCode).toBe(200);
      const after = await drive.list(user);
      expect(after.files.map((f) => f.path)).toEqual([
        'Documents/first.txt',
        expect.stringMatching(/^Documents\//),
        'Documents/after.txt',
      ]);
      expect(after.files[1]!.sha256).toBe(sha256);
      expect(reads.head(user.hex)!.version).toBe(version + 2);
      expect(await readdir(drive.staging.dir)).toEqual([]);

      // And a process opening the index afresh reads the same drive.
      const again = await openDriveAt(dataRoot, { quotaBytes: 1024 ** 3 });
      try {
        expect((await again.drive.list(user)).files).toEqual(after.files);
      } finally {
        await again.close();
      }
    } finally {
      quiet.mockRestore();
    }
  });
});
