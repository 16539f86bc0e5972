import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { multipart } from '../helpers/multipart.js';
import { keyFromSecret, nip98Header, type TestKey } from '../helpers/nostr.js';
import { leftoverFiles } from '../helpers/temp.js';
import { blossomToken, nostrAuth, sha256Hex } from '../drive/blossom/requests.js';
import { loopbackEnv, ServiceFleet } from './service-process.js';

interface Descriptor {
  sha256: string;
  size: number;
  type: string;
  uploaded: number;
}

interface User {
  email: string;
  key: TestKey;
}

/** What a list says about each blob, without the URL (its port changes with each start). */
const facts = (list: Descriptor[]) =>
  list
    .map(({ sha256, size, type, uploaded }) => ({ sha256, size, type, uploaded }))
    .sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));

describe('Blossom across a SIGKILL and a restart', () => {
  const fleet = new ServiceFleet();
  afterEach(() => fleet.cleanup());

  it('serves every blob, byte for byte, and the same lists after a SIGKILL and after a stop', async () => {
    const dir = await fleet.dir();
    const dataRoot = join(dir.path, 'game');
    const env = { ...loopbackEnv(dir.path), DATA_ROOT: dataRoot, PUBLISH_FILE_METADATA: 'false' };
    const start = () => fleet.start(env);

    let { service, url } = await start();

    const register = async (email: string): Promise<User> => {
      const response = await fetch(`${url}/g1nostr`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      expect(response.status).toBe(200);
      const { nsec } = (await response.json()) as { nsec: string };
      return { email, key: keyFromSecret(nip19.decode(nsec).data as Uint8Array) };
    };
    const alice = await register('alice@example.org');
    const bob = await register('bob@example.org');

    const blossomUpload = async (user: User, bytes: Buffer, type: string) => {
      const response = await fetch(`${url}/upload`, {
        method: 'PUT',
        body: bytes,
        headers: {
          authorization: nostrAuth(blossomToken(user.key, { x: [sha256Hex(bytes)] })),
          'content-type': type,
        },
      });
      expect(response.status, await response.clone().text()).toBe(201);
      expect(((await response.json()) as Descriptor).sha256).toBe(sha256Hex(bytes));
    };
    /** The ordinary drive upload (multipart, NIP-98): the index must cover its files as well. */
    const driveUpload = async (user: User, bytes: Buffer, fileName: string) => {
      const { body, contentType } = multipart([
        { name: 'npub', value: user.key.npub },
        { name: 'file', value: bytes, filename: fileName, type: 'application/octet-stream' },
      ]);
      const target = `${url}/api/upload`;
      const response = await fetch(target, {
        method: 'POST',
        body,
        headers: {
          'content-type': contentType,
          authorization: nip98Header(user.key, target, 'POST', { body }),
        },
      });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(((await response.json()) as { fileHash: string }).fileHash).toBe(sha256Hex(bytes));
    };

    // 20 distinct blobs: 7 of Alice's, 7 of Bob's, 4 both uploaded, one drive upload each. Two span
    // several UnixFS blocks.
    const sizes = [10, 1_000, 70_000, 300_000, 1_300_000, 5_000, 20_000];
    const types = ['image/png', 'text/plain', 'application/pdf', 'video/mp4', 'audio/mpeg'];
    const make = (n: number) => Array.from({ length: n }, (_, i) => randomBytes(sizes[i % sizes.length]!));
    const aliceOnly = make(7);
    const bobOnly = make(7);
    const shared = make(4);
    const aliceDrive = randomBytes(40_000);
    const bobDrive = randomBytes(90_000);
    for (const [i, bytes] of aliceOnly.entries()) await blossomUpload(alice, bytes, types[i % types.length]!);
    for (const [i, bytes] of bobOnly.entries()) await blossomUpload(bob, bytes, types[i % types.length]!);
    for (const bytes of shared) {
      await blossomUpload(alice, bytes, 'image/jpeg');
      await blossomUpload(bob, bytes, 'image/jpeg');
    }
    await driveUpload(alice, aliceDrive, 'notes.bin');
    await driveUpload(bob, bobDrive, 'song.bin');
    const every = [...aliceOnly, ...bobOnly, ...shared, aliceDrive, bobDrive];
    expect(new Set(every.map((bytes) => sha256Hex(bytes))).size).toBe(20);

    const list = async (user: User) => {
      const response = await fetch(`${url}/list/${user.key.hex}`);
      expect(response.status).toBe(200);
      return facts((await response.json()) as Descriptor[]);
    };
    const served = async (bytes: Buffer) => {
      const response = await fetch(`${url}/${sha256Hex(bytes)}`);
      if (response.status !== 200) return false;
      return Buffer.from(await response.arrayBuffer()).equals(bytes);
    };
    const shas = (blobs: Buffer[]) => blobs.map((bytes) => sha256Hex(bytes)).sort();

    const aliceList = await list(alice);
    const bobList = await list(bob);
    expect(aliceList.map((d) => d.sha256)).toEqual(shas([...aliceOnly, ...shared, aliceDrive]));
    expect(bobList.map((d) => d.sha256)).toEqual(shas([...bobOnly, ...shared, bobDrive]));
    for (const bytes of every) expect(await served(bytes)).toBe(true);

    // A crash: no shutdown of any kind.
    service.child.kill('SIGKILL');
    await service.exited;
    ({ service, url } = await start());

    for (const bytes of every) expect(await served(bytes), sha256Hex(bytes)).toBe(true);
    expect(await list(alice)).toEqual(aliceList);
    expect(await list(bob)).toEqual(bobList);

    // Alice takes a shared blob out of her drive: Bob's copy is still served.
    const remove = async (user: User, bytes: Buffer) => {
      const hash = sha256Hex(bytes);
      const token = blossomToken(user.key, { verb: 'delete', x: [hash] });
      const response = await fetch(`${url}/${hash}`, {
        method: 'DELETE',
        headers: { authorization: nostrAuth(token) },
      });
      expect(response.status, await response.clone().text()).toBe(200);
    };
    await remove(alice, shared[0]!);
    expect(await served(shared[0]!)).toBe(true);
    await remove(alice, aliceOnly[0]!);
    expect((await fetch(`${url}/${sha256Hex(aliceOnly[0]!)}`)).status).toBe(404);
    const gone = new Set([sha256Hex(shared[0]!), sha256Hex(aliceOnly[0]!)]);
    const aliceAfter = aliceList.filter((d) => !gone.has(d.sha256));
    expect(await list(alice)).toEqual(aliceAfter);
    expect(await list(bob)).toEqual(bobList);
    expect(await leftoverFiles(dataRoot)).toEqual([]);

    // A stop: the manifest.json export of a drive changed since the start is written by then (drive/export.ts),
    // from the index, which holds the blob index too (its holders are written with each change, so it
    // cannot fall behind the drives).
    const stopped = service.exited;
    service.child.kill('SIGTERM');
    expect(await stopped).toBe(0);
    const exported = async (user: User) => {
      const path = join(dataRoot, 'nostr', user.email, 'APP', 'uDRIVE', 'manifest.json');
      const manifest = JSON.parse(await readFile(path, 'utf8')) as {
        exported_from: string;
        files: { sha256: string }[];
      };
      expect(manifest.exported_from).toBe('index');
      return [...new Set(manifest.files.map((f) => f.sha256))].sort();
    };
    expect(await exported(alice)).toEqual(aliceAfter.map((d) => d.sha256));

    ({ url } = await start());
    const stillThere = every.filter((bytes) => bytes !== aliceOnly[0]);
    for (const bytes of stillThere) expect(await served(bytes), sha256Hex(bytes)).toBe(true);
    expect((await fetch(`${url}/${sha256Hex(aliceOnly[0]!)}`)).status).toBe(404);
    expect(await list(alice)).toEqual(aliceAfter);
    expect(await list(bob)).toEqual(bobList);
    expect(await leftoverFiles(dataRoot)).toEqual([]);
  }, 120_000);
});
