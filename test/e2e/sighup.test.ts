import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { multipart } from '../helpers/multipart.js';
import { keyFromSecret, nip98Header, type TestKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { leftoverFiles as leftovers } from '../helpers/temp.js';
import { sha256Hex } from '../drive/blossom/requests.js';
import { loopbackEnv, ServiceFleet } from './service-process.js';

describe('SIGHUP (the terminal closed) stops the station like SIGTERM', () => {
  const fleet = new ServiceFleet();
  afterEach(() => fleet.cleanup());

  it('during a slow upload: exit 0, no staged part left, and what was acknowledged is there after a restart', async () => {
    const dir = await fleet.dir('sighup-');
    const dataRoot = join(dir.path, 'game');
    const tmpDir = join(dir.path, 'tmp');
    const env = { ...loopbackEnv(dir.path), DATA_ROOT: dataRoot, TMP_DIR: tmpDir };
    const start = () => fleet.start(env);
    const first = await start();
    const { service } = first;
    let { url } = first;

    const registered = await fetch(`${url}/g1nostr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'hup@example.org' }),
    });
    const { nsec } = (await registered.json()) as { nsec: string };
    const key: TestKey = keyFromSecret(nip19.decode(nsec).data as Uint8Array);

    // Acknowledged before the signal.
    const kept = randomBytes(200_000);
    const { body, contentType } = multipart([
      { name: 'npub', value: key.npub },
      { name: 'file', value: kept, filename: 'kept.bin' },
    ]);
    const target = `${url}/api/upload`;
    const done = await fetch(target, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, authorization: nip98Header(key, target, 'POST', { body }) },
    });
    expect(done.status, await done.clone().text()).toBe(200);

    // Announced as 8 MB, 2 MB sent, then nothing: still streaming when the signal comes.
    const boundary = '----sighupBoundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="npub"\r\n\r\n${key.npub}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\n\r\n`,
    );
    const slow = request(target, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + 8 * 1024 * 1024 + 64,
        authorization: nip98Header(key, target, 'POST'),
      },
    });
    const slowEnded = new Promise<string>((resolve) => {
      slow.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      slow.on('response', (response) => resolve(String(response.statusCode)));
    });
    slow.write(head);
    slow.write(randomBytes(2 * 1024 * 1024));
    const staging = join(dataRoot, '.drive-staging');
    await waitFor(async () => (await leftovers(staging)).length > 0, 20_000);

    const exited = service.exited;
    service.child.kill('SIGHUP');
    expect(await exited).toBe(0);
    // The client's connection was cut: it never got an answer that claims its upload was kept.
    expect(await slowEnded).not.toBe('200');
    expect(service.lines.join('\n')).toContain('"signal":"SIGHUP"');
    expect(await leftovers(dataRoot)).toEqual([]);
    expect(await leftovers(tmpDir)).toEqual([]);

    url = (await start()).url;
    const listed = await fetch(`${url}/list/${key.hex}`);
    const blobs = (await listed.json()) as { sha256: string }[];
    expect(blobs.map((blob) => blob.sha256)).toEqual([sha256Hex(kept)]);
  });
});
