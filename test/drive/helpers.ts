import { execFile } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Debian's `ipfs_cid` (package ipfs-cid) computes `ipfs add`'s CIDv0 without any daemon. */
export const IPFS_CID_BINARY = '/usr/bin/ipfs_cid';

export async function ipfsCidOf(file: string): Promise<string> {
  const { stdout } = await run(IPFS_CID_BINARY, [file]);
  return (JSON.parse(stdout) as { CIDv0: string }).CIDv0;
}

/** Deterministic pseudo-random bytes (AES-CTR keystream of the seed), produced in 256 KiB chunks. */
export async function* pseudoRandom(size: number, seed = 'drive'): AsyncGenerator<Uint8Array> {
  const key = createHash('sha256').update(seed).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(262_144);
  for (let left = size; left > 0; left -= zeros.length) {
    yield cipher.update(left >= zeros.length ? zeros : zeros.subarray(0, left));
  }
}

export async function writeStream(path: string, source: AsyncIterable<Uint8Array>): Promise<void> {
  const out = createWriteStream(path);
  for await (const chunk of source) if (!out.write(chunk)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

export async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export async function* once_(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
