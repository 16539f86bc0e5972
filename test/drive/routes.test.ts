import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startGateway, type Gateway } from '../../src/drive/store/gateway.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { newKey } from '../helpers/nostr.js';
import { driveLinks } from '../../src/drive/links.js';
import { register, type Owner } from '../helpers/multipart.js';
import { postJson, upload } from './http.js';
import { expectPublishedAsOnDisk, expectSamePublishedDrive } from './published-tree.js';

const LOCAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/;

/** Every file under a directory with its size: "nothing changed" is an equal snapshot. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path);
    files[relative(root, path)] = `${info.size}:${info.mtimeMs}`;
  }
  return files;
}

describe('drive routes', () => {
  let t: TestApp;
  let alice: Owner;
  let bob: Owner;
  let gateway: Gateway;
  /** The wall clock, unless a test freezes it: file dates are part of the published root. */
  const clock = { frozen: null as number | null, now: () => clock.frozen ?? Date.now() };
  /** The published root of a user's drive is that drive as it is on disk and in its list. */
  const expectPublished = async (owner: Owner, root: string) =>
    expectPublishedAsOnDisk(
      t.app.contentStore,
      root,
      join(owner.dir, 'APP', 'uDRIVE'),
      await t.app.drive.list(owner),
      driveLinks(t.config),
    );

  beforeAll(async () => {
    // The per-user upload limits are tested in test/http/upload-limits.test.ts; here 20 run at once.
    t = await buildTestApp({ env: { UPLOAD_MAX_CONCURRENT: '20', UPLOAD_MAX_PER_MINUTE: '1000' }, clock });
    alice = await register(t, 'alice@example.org');
    bob = await register(t, 'bob@example.org');
    gateway = await startGateway(t.app.contentStore, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await gateway.close();
    await t.close();
  });

  it('POST /api/upload stores the file and answers with the docs/api-contract.md §7 fields', async () => {
    const res = await upload(t, alice, 'été.jpg', 'not really a photo');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const driveDir = join(alice.dir, 'APP', 'uDRIVE');
    expect(body).toEqual({
      success: true,
      message: expect.stringContaining('Images/été.jpg'),
      file_path: 'APP/uDRIVE/Images/été.jpg',
      file_type: 'image',
      target_directory: join(driveDir, 'Images'),
      new_cid: expect.stringMatching(/^Qm/),
      file_cid: expect.stringMatching(/^Qm/),
      fileName: 'été.jpg',
      fileHash: '8edd7daf0eb75502845657a637ad9e62b78a8dcdb67a1c6861fb7c91752d519a',
      mimeType: 'image/jpeg',
      size: 18,
      timestamp: expect.stringMatching(LOCAL_ISO),
      auth_verified: true,
    });
    expect(await readFile(join(driveDir, 'Images', 'été.jpg'), 'utf8')).toBe('not really a photo');
    const manifest = await t.app.drive.list(alice);
    expect(manifest).toMatchObject({ root_cid: body.new_cid, total_files: 1, owner_hex_pubkey: alice.hex });
    await expectPublished(alice, body.new_cid);
  });

  it('sanitises traversal names and numbers collisions', async () => {
    const first = (await upload(t, alice, '../../HEX', 'x')).json();
    expect(first.file_path).toBe('APP/uDRIVE/Documents/HEX');
    const again = (await upload(t, alice, '../../HEX', 'y')).json();
    expect(again.fileName).toBe('HEX (1)');
    expect(again.message).toContain('already exists');
    expect((await readFile(join(alice.dir, 'HEX'), 'utf8')).trim()).toBe(alice.hex);
  });

  it('keeps 20 concurrent uploads of one user with one consistent root CID', async () => {
    const carol = await register(t, 'carol@example.org');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upload(t, carol, 'clip.mp4', `frame ${i}`)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const manifest = await t.app.drive.list(carol);
    expect(manifest.total_files).toBe(20);
    expect(new Set(answers.map((a) => a.json().fileName)).size).toBe(20);
    await expectPublished(carol, manifest.root_cid!);
    expect(answers.map((a) => a.json().new_cid)).toContain(manifest.root_cid);
  });

  it('refuses a non-owner (403) and no credential (401), changing nothing', async () => {
    await upload(t, alice, 'private.pdf', '%PDF-1.4');
    const before = await snapshot(alice.dir);
    const asBob = await postJson(t, bob, '/api/delete', {
      file_path: 'Documents/private.pdf',
      npub: alice.npub,
    });
    expect(asBob.statusCode).toBe(403);
    expect(asBob.json()).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    const stranger = newKey();
    expect(
      (await postJson(t, stranger, '/api/delete', { file_path: 'Documents/private.pdf' })).statusCode,
    ).toBe(403);
    expect((await upload(t, alice, 'x.txt', 'x', { signer: bob })).statusCode).toBe(403);
    expect((await upload(t, alice, 'x.txt', 'x', { signer: null })).statusCode).toBe(401);
    expect(await snapshot(alice.dir)).toEqual(before);
    expect(await readdir(join(t.config.dataRoot, '.drive-staging'))).toEqual([]);
  });

  it('deletes (404 unknown, 400 escaping) and a re-upload at the same date publishes the same drive again', async () => {
    clock.frozen = Date.now();
    onTestFinished(() => void (clock.frozen = null));
    const dave = await register(t, 'dave@example.org');
    const kept = (await upload(t, dave, 'keep.txt', 'keep')).json();
    const added = (await upload(t, dave, 'song.mp3', 'ID3 la la')).json();
    const deleted = await postJson(t, dave, '/api/delete', { file_path: 'Music/song.mp3', npub: dave.npub });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({
      success: true,
      message: expect.any(String),
      deleted_file: 'Music/song.mp3',
      new_cid: kept.new_cid,
      timestamp: expect.stringMatching(LOCAL_ISO),
      auth_verified: true,
    });
    expect(await readdir(join(dave.dir, 'APP', 'uDRIVE', 'Music'))).toEqual([]);
    // Same bytes, same second: a distinct NIP-98 event needs another created_at.
    const again = (
      await upload(t, dave, 'song.mp3', 'ID3 la la', { createdAt: Math.floor(Date.now() / 1000) - 1 })
    ).json();
    expect(again).toMatchObject({ fileName: 'song.mp3' });
    await expectSamePublishedDrive(t.app.contentStore, again.new_cid, added.new_cid);
    const unknown = await postJson(t, dave, '/api/delete', { file_path: 'Music/none.mp3' });
    expect(unknown.statusCode).toBe(404);
    const escaping = await postJson(t, dave, '/api/delete', { file_path: '../../../HEX' });
    expect(escaping.statusCode).toBe(400);
    expect(escaping.json().code).toBe('INVALID_FILE_PATH');
    expect((await postJson(t, dave, '/api/delete', {})).statusCode).toBe(400);
  });

  it('POST /api/upload_from_drive copies a file another user published', async () => {
    const published = (await upload(t, alice, 'recette.pdf', '%PDF-1.4 tarte')).json();
    const manifest = await t.app.drive.list(alice);
    const link = manifest.files.find((f) => f.name === 'recette.pdf')!.ipfs_link;
    const res = await postJson(t, bob, '/api/upload_from_drive', { ipfs_link: link, npub: bob.npub });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: expect.any(String),
      file_path: 'APP/uDRIVE/Documents/recette.pdf',
      file_type: 'document',
      new_cid: expect.stringMatching(/^Qm/),
      file_cid: published.file_cid,
      timestamp: expect.stringMatching(LOCAL_ISO),
      auth_verified: true,
    });
    const bobManifest = await t.app.drive.list(bob);
    expect(bobManifest.files[0]!.source).toEqual({ kind: 'drive', ipfs_link: link, cid: published.file_cid });
    const folder = await postJson(t, bob, '/api/upload_from_drive', { ipfs_link: published.new_cid });
    expect(folder.statusCode).toBe(400);
    expect(folder.json().code).toBe('NOT_A_FILE');
    expect((await postJson(t, bob, '/api/upload_from_drive', { ipfs_link: 'Qm-nope' })).statusCode).toBe(400);
  });

  it('hands a cookie file sent to /api/upload to cookie intake, never to the drive', async () => {
    const cookie = '# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t2000000000\tsid\tsecret\n';
    const res = await upload(t, bob, 'photo.jpg', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ file_type: 'netscape_cookies', new_cid: null });
    expect(await readdir(join(bob.dir, 'APP', 'uDRIVE', 'Images'))).toEqual([]);
    // And /api/fileupload puts a file that is not a cookie file in the drive, as /api/upload does.
    const video = await upload(t, bob, 'clip.webm', 'webm bytes', { path: '/api/fileupload' });
    expect(video.statusCode).toBe(200);
    expect(video.json()).toMatchObject({ file_path: 'APP/uDRIVE/Videos/clip.webm', file_type: 'video' });
  });

  it('serves uploaded files through the gateway, with Range', async () => {
    const content = Buffer.from('0123456789'.repeat(100));
    const res = (await upload(t, bob, 'digits.txt', content)).json();
    const url = `${gateway.url}/ipfs/${res.new_cid}/Documents/digits.txt`;
    const whole = await fetch(url);
    expect(whole.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true);
    const part = await fetch(url, { headers: { range: 'bytes=995-1004' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('56789');
  });
});
