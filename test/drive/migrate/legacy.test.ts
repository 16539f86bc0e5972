import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATED_KEY } from '../../../src/drive/migrate/migration.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { waitFor } from '../../helpers/relay.js';
import { tempDir } from '../../helpers/temp.js';
import { collect } from '../helpers.js';

const run = promisify(execFile);
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

interface ExpectedFile {
  path: string;
  sha256: string;
  cid: string;
  size: number;
}

interface Expected {
  users: Record<
    string,
    {
      email: string;
      hex: string;
      expected_files: ExpectedFile[];
      deleted_files: { path: string }[];
      media_record?: { wrapper: string; bundle: string; info: string };
    }
  >;
}

interface Listing {
  files: ExpectedFile[];
  root_cid: string | null;
  total_files: number;
}

describe('drives written by the release before the index (fixture of 37b25b6)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let t: TestApp;
  let expected: Expected;
  const listing = async (hex: string) => {
    const answer = await t.app.inject({ method: 'GET', url: `/api/drive?npub=${hex}` });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as Listing;
  };

  beforeAll(async () => {
    dir = await tempDir('legacy-');
    await run('tar', ['xzf', join(FIXTURES, 'legacy-drives.tar.gz'), '-C', dir.path]);
    expected = JSON.parse(await readFile(join(FIXTURES, 'legacy-drives.json'), 'utf8')) as Expected;
    t = await buildTestApp({ env: { DATA_ROOT: dir.path }, start: true });
  });
  afterAll(async () => {
    await t?.close();
    await dir?.cleanup();
  });

  it('answers for a drive the background import has not reached yet: bob, whose log lost a line', async () => {
    const bob = expected.users.bob!;
    const list = await listing(bob.hex);
    // The folder is the truth for a drive with a gap: the file whose line was lost is listed again.
    expect(list.files.map((f) => f.path).sort()).toEqual(bob.expected_files.map((f) => f.path).sort());
  });

  it('lists every drive as the release did, interrupted uploads recovered, deleted files absent', async () => {
    await waitFor(async () => t.deps.drive.db.meta.get(MIGRATED_KEY) === true, 60_000);
    for (const user of Object.values(expected.users)) {
      const list = await listing(user.hex);
      const byPath = new Map(list.files.map((f) => [f.path, f]));
      expect([...byPath.keys()].sort(), user.email).toEqual(user.expected_files.map((f) => f.path).sort());
      for (const file of user.expected_files) {
        const listed = byPath.get(file.path)!;
        expect({ sha256: listed.sha256, cid: listed.cid, size: listed.size }, file.path).toEqual({
          sha256: file.sha256,
          cid: file.cid,
          size: file.size,
        });
      }
      for (const gone of user.deleted_files) expect(byPath.has(gone.path)).toBe(false);
      expect(list.total_files).toBe(user.expected_files.length);
    }
    // Files keep the order they were added in (alice: the checkpoint's, then her log's).
    const alice = expected.users.alice!;
    expect((await listing(alice.hex)).files.map((f) => f.path)).toEqual(
      alice.expected_files.map((f) => f.path),
    );
  });

  it('verified every file: its bytes come back from the store and from the published root', async () => {
    for (const user of Object.values(expected.users)) {
      const list = await listing(user.hex);
      for (const file of list.files) {
        const bytes = await collect(t.deps.drive.store.cat(file.cid));
        expect(createHash('sha256').update(bytes).digest('hex'), file.path).toBe(file.sha256);
        const viaRoot = await collect(t.deps.drive.store.cat(`${list.root_cid}/${file.path}`));
        expect(viaRoot.length).toBe(file.size);
      }
    }
  });

  it('keeps alice’s media record and serves her blobs by hash', async () => {
    const alice = expected.users.alice!;
    const media = alice.media_record!;
    expect(t.deps.drive.reads.media(alice.hex, media.wrapper)?.bundle).toBe(media.bundle);
    const first = alice.expected_files[0]!;
    const blob = await t.app.inject({ method: 'GET', url: `/${first.sha256}` });
    expect(blob.statusCode).toBe(200);
    expect(createHash('sha256').update(blob.rawPayload).digest('hex')).toBe(first.sha256);
  });

  it('leaves only the new layout behind: no log, journal or media folder; manifest.json an export', async () => {
    for (const user of Object.values(expected.users)) {
      const driveDir = join(dir.path, 'nostr', user.email, 'APP', 'uDRIVE');
      const names = await readdir(driveDir).catch(() => [] as string[]);
      expect(
        names.filter((n) => ['.manifest.log', '.journal', '.media'].includes(n)),
        user.email,
      ).toEqual([]);
      if (user.expected_files.length === 0) continue;
      const exported = JSON.parse(await readFile(join(driveDir, 'manifest.json'), 'utf8')) as {
        exported_from: string;
        files: { path: string }[];
      };
      expect(exported.exported_from).toBe('index');
      expect(exported.files.length).toBe(user.expected_files.length);
    }
  });

  it('takes new uploads and deletions on every migrated drive, bob’s included', async () => {
    const bob = expected.users.bob!;
    const user = (await t.deps.users.findByHex(bob.hex))!;
    const added = await t.deps.drive.drive.addStream(
      user,
      'after.txt',
      (async function* () {
        yield Buffer.from('after the import');
      })(),
      { kind: 'cli' },
    );
    expect(added.entry.path).toBe('Documents/after.txt');
    await t.deps.drive.drive.delete(user, 'Documents/b4.pdf');
    const paths = (await listing(bob.hex)).files.map((f) => f.path);
    expect(paths).toContain('Documents/after.txt');
    expect(paths).not.toContain('Documents/b4.pdf');
    expect(
      (await stat(join(dir.path, 'nostr', bob.email, 'APP', 'uDRIVE', 'Documents', 'after.txt'))).size,
    ).toBe(16);
  });
});
