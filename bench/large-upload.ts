/**
 * One large upload against the tools that only read the file: time for `ipfs_cid` (Debian `ipfs-cid`, the
 * CID alone) and `sha256sum` on a file of LARGE_UPLOAD_MB (default 1024), then the time to upload the same
 * file to a bench station with Blossom `PUT /upload` (staged, hashed, imported, in the drive, answered) and
 * the station process's peak RSS growth during the upload; `/health` for 5 s (50 connections) in the same run.
 * Run: `npm run bench:large`.
 */
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { healthRps } from './health.js';
import { makeFile, referenceReaders, timed } from './large-file.js';
import { finalizeEvent, nip19 } from 'nostr-tools';
import { register } from './scenarios.js';
import { startBenchStation } from './station.js';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.LARGE_UPLOAD_MB ?? 1024) * MiB;

function blossomToken(secretKey: Uint8Array, sha256: string): string {
  const now = Math.floor(Date.now() / 1000);
  const tags = [
    ['t', 'upload'],
    ['expiration', String(now + 3600)],
    ['x', sha256],
  ];
  const event = finalizeEvent({ kind: 24242, created_at: now, content: 'large upload', tags }, secretKey);
  return `Nostr ${Buffer.from(JSON.stringify(event)).toString('base64url')}`;
}

/** Streams a file as the body of a PUT with node:http, which waits for the socket (fetch's stream does not). */
async function put(
  url: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: { sha256?: string; cid?: string } }> {
  const request = httpRequest(url, { method: 'PUT', headers });
  const answer = new Promise<IncomingMessage>((resolve, reject) => {
    request.on('response', resolve).on('error', reject);
  });
  await pipeline(createReadStream(path), request);
  const response = await answer;
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return { status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
}

const file = join(tmpdir(), `large-upload-${process.pid}.bin`);
await makeFile(file, SIZE);
try {
  const { ipfsCid, sha256sum } = await referenceReaders(file);
  const station = await startBenchStation();
  try {
    const health_rps = await healthRps(station.url);
    const user = await register(station.url, `large-${Date.now()}@example.org`);
    const key = nip19.decode(user.nsec).data as Uint8Array;
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const upload = await timed(() =>
      put(`${station.url}/upload`, file, {
        authorization: blossomToken(key, sha256sum.value),
        'content-type': 'application/octet-stream',
        'content-length': String(SIZE),
      }),
    ).finally(() => clearInterval(sampler));
    const { status, body } = upload.value;
    console.log(
      JSON.stringify({
        size_mb: SIZE / MiB,
        upload_s: upload.seconds,
        ipfs_cid_s: ipfsCid.seconds,
        sha256sum_s: sha256sum.seconds,
        vs_ipfs_cid: Math.round((upload.seconds / ipfsCid.seconds) * 100) / 100,
        vs_sha256sum: Math.round((upload.seconds / sha256sum.seconds) * 100) / 100,
        rss_growth_mb: Math.round((peak - baseline) / MiB),
        health_rps,
        status,
        same_cid: body.cid === ipfsCid.value,
        same_sha256: body.sha256 === sha256sum.value,
        file_bytes: (await stat(file)).size,
      }),
    );
  } finally {
    await station.close();
  }
} finally {
  await rm(file, { force: true });
}
