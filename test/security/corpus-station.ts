import { access, constants, mkdtemp, readFile, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { startDriveGateway } from '../../src/drive/plugin.js';
import type { Gateway } from '../../src/drive/store/gateway.js';
import { FakeSquid } from '../economy/squid-server.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { keyFromSecret, nip98Header, type TestKey } from '../helpers/nostr.js';
import { send, type WireRequest, type WireResponse } from './corpus-wire.js';

/**
 * A temp directory on tmpfs when there is a roomy one (/dev/shm): the station fsyncs every write it makes
 * durable, which on a disk costs milliseconds each and would make thousands of requests slow. The file
 * system does not matter to what the corpora check.
 */
export async function corpusDir(prefix: string): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join((await roomyShm()) ? '/dev/shm' : tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

async function roomyShm(): Promise<boolean> {
  try {
    await access('/dev/shm', constants.W_OK);
    const info = await statfs('/dev/shm');
    return info.bavail * info.bsize > 256 * 1024 * 1024;
  } catch {
    return false;
  }
}

export interface Member extends TestKey {
  email: string;
  dir: string;
}

/**
 * One real station for a corpus: the whole HTTP app (real auth, user store, drive on the embedded store,
 * cookie vault, economy on a local indexer) listening on a loopback socket, the embedded gateway, and a user
 * registered through `POST /g1nostr`. Limits are lifted so the corpus measures input handling only.
 */
export interface Station {
  t: TestApp;
  port: number;
  gateway: Gateway;
  member: Member;
  /** A file of the member's drive: `<wrapper cid>/<name>` and its path relative to APP/uDRIVE. */
  driveFile: { ipfsLink: string; filePath: string; cid: string };
  secrets: string[];
  send(request: WireRequest): Promise<WireResponse | null>;
  /** A NIP-98 header for `target` (the raw request target) signed over `body` by `key` (the member). */
  auth(method: string, target: string, body?: Buffer, key?: TestKey): string;
  register(email: string): Promise<Member>;
  close(): Promise<void>;
}

/** `home`: HOME, with DATA_ROOT and TMP_DIR under `home/.zen` (default: the test app's temp layout). */
export async function startStation(options: { home?: string } = {}): Promise<Station> {
  const squid = await FakeSquid.start();
  const layout: Record<string, string> = options.home
    ? {
        HOME: options.home,
        DATA_ROOT: join(options.home, '.zen', 'game'),
        TMP_DIR: join(options.home, '.zen', 'tmp'),
      }
    : {};
  const t = await buildTestApp({
    env: {
      ...layout,
      RATE_LIMIT_MAX: '1000000',
      UPLOAD_MAX_PER_MINUTE: '100000',
      UPLOAD_MAX_CONCURRENT: '1000',
      UPLOAD_IP_MAX_PER_MINUTE: '100000',
      UPLOAD_IP_MAX_CONCURRENT: '1000',
      SQUID_URL: squid.url,
      IPFS_GATEWAY: 'http://127.0.0.1:0',
      DRIVE_QUOTA_MB: '8',
    },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (t.app.server.address() as { port: number }).port;
  const gateway = await startDriveGateway(t.config, t.app.contentStore, t.deps.logger);
  if (!gateway) throw new Error('the embedded gateway did not start');
  const wire = (request: WireRequest) => send(port, request);
  const auth = (method: string, target: string, body?: Buffer, key: TestKey = member) =>
    nip98Header(key, `http://127.0.0.1:${port}${target}`, method, body ? { body } : {});

  const register = async (email: string): Promise<Member> => {
    const body = Buffer.from(JSON.stringify({ email }));
    const answer = await wire({
      label: 'register',
      method: 'POST',
      target: '/g1nostr',
      headers: [['Content-Type', 'application/json']],
      body,
    });
    if (answer?.status !== 200) throw new Error(`registration failed: ${answer?.body.toString()}`);
    const { nsec } = JSON.parse(answer.body.toString()) as { nsec: string };
    const key = keyFromSecret(nip19.decode(nsec as `nsec1${string}`).data);
    return { ...key, email, dir: t.deps.users.dirFor(email) };
  };
  const member = await register('corpus@example.org');

  const { body, contentType } = multipartBody([
    { name: 'npub', value: member.npub },
    { name: 'file', filename: 'seed.txt', value: 'a drive file of the corpus\n' },
  ]);
  const uploaded = await wire({
    label: 'seed upload',
    method: 'POST',
    target: '/api/upload',
    headers: [
      ['Content-Type', contentType],
      ['Authorization', auth('POST', '/api/upload', body)],
    ],
    body,
  });
  if (uploaded?.status !== 200) throw new Error(`seed upload failed: ${uploaded?.body.toString()}`);
  const answer = JSON.parse(uploaded.body.toString()) as { file_path: string; file_cid: string };
  const manifest = await t.app.drive.list(member);
  const secrets = await readSecrets(member);
  return {
    t,
    port,
    gateway,
    member,
    driveFile: {
      ipfsLink: manifest.files[0]!.ipfs_link,
      filePath: answer.file_path.replace(/^APP\/uDRIVE\//, ''),
      cid: answer.file_cid,
    },
    secrets,
    send: wire,
    auth,
    register,
    close: async () => {
      await gateway.close();
      await t.close();
      await squid.close();
    },
  };
}

/** A user's secret keys in every spelling a leak could take: the file, the nsec, its hex, the Ğ1 secret. */
export async function readSecrets(member: Member): Promise<string[]> {
  const nostrFile = (await readFile(join(member.dir, '.secret.nostr'), 'utf8')).trim();
  const dunikey = await readFile(join(member.dir, '.secret.dunikey'), 'utf8');
  return [
    nostrFile,
    /NSEC=([^;\s]+)/.exec(nostrFile)![1]!,
    Buffer.from(member.sk).toString('hex'),
    /sec: *(\S+)/.exec(dunikey)![1]!,
  ];
}

export interface Part {
  name: string;
  value: string | Buffer;
  /** Sent as raw bytes in the Content-Disposition header. */
  filename?: string | Buffer;
  /** Sent as an RFC 5987 `filename*=UTF-8''…` parameter (percent-encoded by the caller). */
  filenameStar?: string;
  type?: string;
}

/** A multipart/form-data body; `close: false` leaves out the closing boundary. */
export function multipartBody(
  parts: Part[],
  options: { boundary?: string; close?: boolean } = {},
): { body: Buffer; contentType: string } {
  const boundary = options.boundary ?? '----corpusBoundary7MA4YWxk';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`));
    if (part.filename !== undefined) {
      chunks.push(Buffer.from('; filename="'), Buffer.from(part.filename), Buffer.from('"'));
      if (part.filenameStar !== undefined)
        chunks.push(Buffer.from(`; filename*=UTF-8''${part.filenameStar}`));
      chunks.push(Buffer.from(`\r\nContent-Type: ${part.type ?? 'application/octet-stream'}`));
    }
    chunks.push(Buffer.from('\r\n\r\n'), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
