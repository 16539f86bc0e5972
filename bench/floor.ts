/**
 * The floor of a 64 KiB upload on this machine: a bare Fastify app (no plugins, no hooks) whose `PUT /upload`
 * only does what any durable upload must, streaming the body to a new file while hashing it, flushing it and
 * renaming it to its hash, and answering the hash. Measured with the same autocannon settings and bodies as
 * the station's Blossom scenarios, in the same process, so the station's figure can be read against it:
 * everything a station does on top (tokens and their replay records, the content store, the drive's
 * publication, the NIP-94 announcement, security headers) is the difference.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { measuredRun } from './cpu.js';
import { removeBenchFiles } from './fresh-inodes.js';
import { healthRps } from './health.js';

async function startFloor(dir: string) {
  const app = Fastify();
  // The body stays a stream, as the station's upload routes take it.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.get('/health', async () => ({ status: 'ok' }));
  app.put('/upload', async (request) => {
    const hash = createHash('sha256');
    const temp = join(dir, `.${randomBytes(12).toString('hex')}.part`);
    const file = await open(temp, 'wx', 0o600);
    let size = 0;
    try {
      for await (const chunk of request.raw as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.byteLength;
        await file.write(chunk);
      }
      await file.sync();
    } finally {
      await file.close();
    }
    const sha256 = hash.digest('hex');
    await rename(temp, join(dir, sha256));
    return { sha256, size };
  });
  return { url: await app.listen({ host: '127.0.0.1', port: 0 }), close: () => app.close() };
}

/**
 * The floor's `/health` and its 64 KiB uploads (distinct bodies) over `seconds` at `connections`.
 * `removeFiles` deletes what the floor wrote: call it once the station's scenarios are done. Deleting the
 * floor's ~20,000 files just before the station's scenarios would make each of their new files cost up to a
 * millisecond more (bench/fresh-inodes.ts).
 */
export async function measureFloor(size: number, connections: number, seconds: number) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-floor-'));
  const floor = await startFloor(dir);
  const removeFiles = () => removeBenchFiles(dir);
  try {
    const health_rps = await healthRps(floor.url, connections);
    const body = randomBytes(size);
    let number = 0;
    const { result, cpu_ms_per_request } = await measuredRun(`floor-${size / 1024}KiB`, undefined, {
      url: floor.url,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'PUT',
          path: '/upload',
          setupRequest: (request) => {
            body.writeBigUInt64BE(BigInt(number++), size - 8);
            return { ...request, headers: { 'content-type': 'application/octet-stream' }, body };
          },
        },
      ],
    });
    const figures = {
      rps: Math.round(result.requests.average),
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      cpu_ms_per_request,
      non2xx: result.non2xx,
      errors: result.errors,
      health_rps,
    };
    return { figures, removeFiles };
  } catch (error) {
    await removeFiles();
    throw error;
  } finally {
    await floor.close();
  }
}
