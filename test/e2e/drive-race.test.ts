import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { httpApi, registerAt } from '../drive/index/http-api.js';
import { disagreements, raceOnDrive, serverErrors, type Listing } from '../drive/index/race-workload.js';
import { loopbackEnv, ServiceFleet } from './service-process.js';

/** Each half of the run (the race runs 60 s; the process is killed in the middle). */
const HALF_MS = Number(process.env.DRIVE_RACE_SECONDS ?? 60) * 500;

describe('a drive raced by its owner and its pages, across a SIGKILL', () => {
  const fleet = new ServiceFleet();
  afterEach(() => fleet.cleanup());

  it('lists exactly what was acknowledged after a kill in the middle and a restart, with no 5xx', async () => {
    const dir = await fleet.dir();
    const env = {
      ...loopbackEnv(dir.path),
      DATA_ROOT: join(dir.path, 'game'),
      UPLOAD_MAX_PER_MINUTE: '100000',
      UPLOAD_MAX_CONCURRENT: '16',
      PUBLISH_FILE_METADATA: 'false',
    };
    let base = '';
    const start = async () => {
      const { service, url } = await fleet.start(env);
      base = url;
      return service;
    };
    const first = await start();
    const key = await registerAt(base, 'racer@example.org');
    const api = httpApi(() => base, key);
    const half = Date.now() + HALF_MS;
    const result = await Promise.all([
      raceOnDrive(api, {
        loops: 3,
        readers: 4,
        until: () => Date.now() > half || first.child.exitCode !== null || first.child.signalCode !== null,
      }),
      new Promise<void>((resolve) =>
        setTimeout(() => {
          // Mid-request for most of the clients: their answers never come.
          first.child.kill('SIGKILL');
          resolve();
        }, HALF_MS),
      ),
    ]).then(([r]) => r);
    await first.exited;
    expect(serverErrors(result), JSON.stringify([...(result.serverCodes ?? result.statuses)])).toBe(0);
    await start();
    const end = Date.now() + HALF_MS;
    await raceOnDrive(api, { loops: 3, readers: 4, until: () => Date.now() > end, prefix: 'after-' }, result);
    expect(serverErrors(result), JSON.stringify([...(result.serverCodes ?? result.statuses)])).toBe(0);
    expect(result.inconsistent).toEqual([]);
    const final = await api.list();
    expect(final.status).toBe(200);
    const listing = final.body as Listing;
    expect(disagreements(listing, result)).toEqual([]);
    // Every listed file is there to be read, by its hash (Blossom) and under the root.
    for (const file of listing.files) {
      const blob = await fetch(`${base}/${file.sha256}`);
      expect(blob.status, file.path).toBe(200);
      await blob.arrayBuffer();
    }
  });
});
