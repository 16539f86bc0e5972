import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deleteFile, generateDownloadUrl, readServerConfig, uploadFile } from 'nip96-client/nip96';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, nip98Header, signEvent, type TestKey } from '../../helpers/nostr.js';
import { waitFor } from '../../helpers/relay.js';
import { tempDir } from '../../helpers/temp.js';
import { driveFiles, localUser, startBlossomStation, type BlossomStation } from '../blossom/station.js';

const run = promisify(execFile);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** NIP-98 the way NIP-96 clients sign an upload: the `payload` tag is the file's hash, not the body's. */
function fileAuth(key: TestKey, url: string, file: Buffer): string {
  // A nonce: two uploads of one file in the same second would otherwise sign the very same event (a replay).
  const tags = [
    ['u', url],
    ['method', 'POST'],
    ['payload', sha256(file)],
    ['nonce', randomBytes(8).toString('hex')],
  ];
  return authorizationHeader(signEvent(key, { kind: 27235, tags }));
}

describe('NIP-96 with nostr-tools’ nip96 helpers', () => {
  let s: BlossomStation;
  let carol: TestKey;
  let png: Buffer;
  let apiUrl: string;
  let downloadUrl: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    s = await startBlossomStation();
    carol = await localUser(s, 'carol@example.org');
    const dir = await tempDir();
    cleanup = dir.cleanup;
    const path = join(dir.path, 'still.png');
    await run('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x48',
      '-frames:v',
      '1',
      path,
    ]);
    png = await readFile(path);
  });
  afterAll(async () => {
    await s.stop();
    await cleanup();
  });

  it('describes the server at /.well-known/nostr/nip96.json', async () => {
    const config = await readServerConfig(s.server);
    expect(config.api_url).toBe(`${s.server}/upload2ipfs`);
    expect(config.download_url).toBe(s.server);
    expect(config.supported_nips).toEqual(expect.arrayContaining([94, 96, 98]));
    expect(config.plans?.free?.is_nip98_required).toBe(true);
    apiUrl = config.api_url;
    downloadUrl = config.download_url!;
  });

  it('uploads into the drive with NIP-98, answers NIP-94 tags, and announces the file on the relay', async () => {
    const file = new File([png], 'still.png', { type: 'image/png' });
    const answer = await uploadFile(file, apiUrl, fileAuth(carol, apiUrl, png), {
      caption: 'a test card',
      alt: 'colour bars',
    });
    expect(answer.status).toBe('success');
    const tags = Object.fromEntries(answer.nip94_event!.tags.map((t) => [t[0], t[1]]));
    expect(tags).toMatchObject({
      ox: sha256(png),
      x: sha256(png),
      m: 'image/png',
      size: String(png.length),
      dim: '64x48',
    });
    expect(tags.url).toBe(`${s.server}/${sha256(png)}.png`);
    const files = await driveFiles(s, 'carol@example.org');
    expect(files.filter((f) => f.sha256 === sha256(png))).toMatchObject([
      { path: 'Images/still.png', source: { kind: 'nip96' } },
    ]);
    expect((answer as unknown as { new_cid: string }).new_cid).toBe(files[0]!.ipfs_link.split('/')[0]);

    const back = await fetch(generateDownloadUrl(sha256(png), downloadUrl, '.png'));
    expect(Buffer.from(await back.arrayBuffer()).equals(png)).toBe(true);
    const viaApi = await fetch(`${apiUrl}/${sha256(png)}`);
    expect(viaApi.status).toBe(200);

    let event: { tags: string[][]; content: string } | undefined;
    await waitFor(async () => {
      const found = await s.station.client.query([{ kinds: [1063], authors: [carol.hex] }]);
      event = found.find((e) => e.tags.some((t) => t[0] === 'x' && t[1] === sha256(png)));
      return event !== undefined;
    });
    expect(event!.content).toBe('a test card');
    expect(event!.tags).toEqual(
      expect.arrayContaining([
        ['dim', '64x48'],
        ['alt', 'colour bars'],
      ]),
    );
  });

  it('keeps one file per SHA-256 and answers 200 for the second upload', async () => {
    const file = new File([png], 'again.png', { type: 'image/png' });
    const response = await fetch(apiUrl, {
      method: 'POST',
      headers: { authorization: fileAuth(carol, apiUrl, png) },
      body: (() => {
        const form = new FormData();
        form.append('no_transform', 'true');
        form.append('file', file);
        return form;
      })(),
    });
    expect(response.status).toBe(200);
    expect((await driveFiles(s, 'carol@example.org')).filter((f) => f.sha256 === sha256(png))).toHaveLength(
      1,
    );
  });

  it('lists the caller’s files and deletes one, with NIP-98', async () => {
    const other = randomBytes(2000);
    const form = new FormData();
    form.append('file', new File([other], 'notes.txt', { type: 'text/plain' }));
    const encoded = new Response(form);
    const contentType = encoded.headers.get('content-type');
    const body = Buffer.from(await encoded.arrayBuffer());
    const posted = await fetch(apiUrl, {
      method: 'POST',
      headers: { authorization: nip98Header(carol, apiUrl, 'POST', { body }), 'content-type': contentType! },
      body,
    });
    expect(posted.status).toBe(201);
    const listUrl = `${apiUrl}?page=0&count=10`;
    const list = await fetch(listUrl, { headers: { authorization: nip98Header(carol, listUrl, 'GET') } });
    const listed = (await list.json()) as { total: number; files: { tags: string[][] }[] };
    expect(listed.total).toBe(2);
    expect(listed.files.flatMap((f) => f.tags.filter((t) => t[0] === 'ox').map((t) => t[1]))).toContain(
      sha256(other),
    );

    const deleteUrl = `${apiUrl}/${sha256(other)}`;
    const deleted = await deleteFile(sha256(other), apiUrl, nip98Header(carol, deleteUrl, 'DELETE'));
    expect(deleted).toEqual({ status: 'success', message: 'File deleted.' });
    expect((await driveFiles(s, 'carol@example.org')).some((f) => f.sha256 === sha256(other))).toBe(false);
  });

  it('refuses an upload without NIP-98, or signed for other bytes', async () => {
    const form = new FormData();
    form.append('file', new File([randomBytes(100)], 'x.bin'));
    const anonymous = await fetch(apiUrl, { method: 'POST', body: form });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'PROOF_REQUIRED' });
    const file = new File([randomBytes(100)], 'y.bin');
    await expect(uploadFile(file, apiUrl, fileAuth(carol, apiUrl, randomBytes(100)))).rejects.toThrow();
  });
});
