import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probesFor, type Probe, type Uploaders } from './corpus-entries.js';
import { HOSTILE_NAMES, nameBytes } from './corpus-names.js';
import { changes, dataRootViolations, snapshot, type Snapshot } from './corpus-snapshot.js';
import { corpusDir, readSecrets, startStation, type Station } from './corpus-station.js';
import { contractViolation, runPool, send, type WireResponse } from './corpus-wire.js';

/**
 * Traversal corpus: more than a hundred hostile names and paths thrown at every place a name or path enters
 * the station (upload file names, drive paths and links, cookie domains in URLs and in cookie files, gateway
 * paths, static files, registration e-mails), authenticated as a registered user where the route needs it.
 * Nothing may be written outside DATA_ROOT (the whole temp HOME is compared, paths, sizes and modes), nothing
 * inside it outside the right user's drive folders or cookie files, no answer may be a 5xx or a 4xx other
 * than `{detail, code}`, and no answer may carry the user's secret key.
 */

/** Directories a relative or absolute escape would reach (above the temp HOME, the OS temp dir, the cwd, /). */
const watchedDirs = (home: string) => [dirname(home), tmpdir(), process.cwd(), '/'];
const SENSITIVE_FILES = ['/etc/passwd', '/etc/hosts', '/etc/shadow'];

/** Last path components a traversal would create ("x", "passwd", "win.ini", …). */
const canaries = new Set(
  HOSTILE_NAMES.flatMap((name) => nameBytes(name).toString('utf8').split(/[/\\]/).slice(-1)).filter(
    (n) => n.length > 0,
  ),
);

async function watched(home: string): Promise<string[]> {
  const out: string[] = [];
  for (const dir of watchedDirs(home))
    for (const name of await readdir(dir).catch(() => [] as string[]))
      if (canaries.has(name)) out.push(join(dir, name));
  for (const file of SENSITIVE_FILES) {
    const info = await stat(file).catch(() => null);
    out.push(`${file}:${info ? `${info.size}:${info.mode}:${info.mtimeMs}` : 'absent'}`);
  }
  return out.sort();
}

/** Requests in flight: enough to keep both cores busy while some requests wait on file system calls. */
const CONCURRENCY = 12;

describe('traversal corpus', () => {
  let home: Awaited<ReturnType<typeof corpusDir>>;
  let station: Station;
  let dataRoot: string;
  let outsideBefore: Snapshot;
  let insideBefore: Snapshot;
  let watchedBefore: string[];
  let uploaders: Uploaders;
  const secrets: string[] = [];
  const answered: { probe: Probe; response: WireResponse | null }[] = [];

  /** Outside DATA_ROOT: the rest of the temp tree above HOME. */
  const outside = () => snapshot(home.path, (rel) => rel === relative(home.path, dataRoot));

  beforeAll(async () => {
    home = await corpusDir('traversal-');
    station = await startStation({ home: join(home.path, 'home') });
    dataRoot = station.t.config.dataRoot;
    uploaders = [station.member];
    for (let i = 1; i < 6; i += 1) uploaders.push(await station.register(`uploader${i}@example.org`));
    // A user nothing is sent for: their directory must stay as it is.
    const other = await station.register('other@example.org');
    for (const user of [...uploaders, other]) secrets.push(...(await readSecrets(user)));
    // A cookie file to be found (or not) through hostile domains.
    const probe = probesFor(station, 'youtube.com').find((p) => p.entry === 'cookie domain column')!;
    expect((await send(probe.port, probe.build()))?.status).toBe(200);
    outsideBefore = await outside();
    insideBefore = await snapshot(dataRoot);
    watchedBefore = await watched(home.path);
  });
  afterAll(async () => {
    await station?.close();
    await home?.cleanup();
  });

  const run = async (entries: string[]) => {
    const probes = HOSTILE_NAMES.flatMap((name) => probesFor(station, name, uploaders)).filter((p) =>
      entries.includes(p.entry),
    );
    const failures: string[] = [];
    await runPool(
      probes.map((probe) => async () => {
        const request = probe.build();
        const response = await send(probe.port, request);
        answered.push({ probe, response });
        const problem = contractViolation(response, { method: request.method });
        if (problem) failures.push(`${probe.label}: ${problem}`);
        if (probe.signer && response?.status === 200) {
          // An accepted upload lands in its signer's drive folders (or, a cookie file, their directory).
          const { target_directory: dir, fileName } = JSON.parse(response.body.toString()) as Record<
            string,
            string
          >;
          const inDrive =
            dir!.startsWith(`${probe.signer.dir}/APP/uDRIVE/`) && !/^\.|\//.test(fileName ?? '');
          if (dir !== probe.signer.dir && !inDrive)
            failures.push(`${probe.label}: stored in ${dir} as ${fileName}`);
        }
      }),
      CONCURRENCY,
      {
        every: 100,
        run: async () =>
          expect((await station.send({ label: 'health', method: 'GET', target: '/health' }))?.status).toBe(
            200,
          ),
      },
    );
    const statuses: Record<string, number> = {};
    for (const { probe, response } of answered)
      if (entries.includes(probe.entry))
        statuses[response?.status ?? 'closed'] = (statuses[response?.status ?? 'closed'] ?? 0) + 1;
    return { count: probes.length, failures, statuses };
  };

  it('has more than 100 hostile names', () => {
    expect(HOSTILE_NAMES.length).toBeGreaterThanOrEqual(100);
  });

  it.each([
    [['upload filename', 'upload filename*', 'fileupload filename']],
    [['cookie domain column']],
    [['file_path']],
    [['ipfs_link']],
    [['cookie domain']],
    [['gateway path']],
    [['e-mail']],
    [['static file']],
  ])(
    '%j: no 5xx, every 4xx {detail, code}',
    async (entries) => {
      const { count, failures, statuses } = await run(entries);
      console.log(`traversal corpus, ${entries.join(' + ')}: ${count} requests`, JSON.stringify(statuses));
      expect(failures).toEqual([]);
    },
    120_000,
  );

  it('answers two simultaneous deletions of one cookie file with 200 and 404 (once a 500)', async () => {
    const [upload] = probesFor(station, 'race.example').filter((p) => p.entry === 'cookie domain column');
    expect((await send(upload!.port, upload!.build()))?.status).toBe(200);
    const remove = () =>
      send(station.port, {
        label: 'delete',
        method: 'DELETE',
        target: '/cookie/race.example',
        headers: [['Authorization', station.auth('DELETE', '/cookie/race.example')]],
      });
    const answers = await Promise.all([remove(), remove()]);
    expect(answers.map((a) => a?.status).sort()).toEqual([200, 404]);
  });

  // What Node's parser refuses on the gateway port (an unknown method, a NUL in the path, a 20 KB path) is
  // answered as on the API port.
  it('answers malformed requests on the gateway port with {detail, code}', async () => {
    const port = Number(new URL(station.gateway.url).port);
    for (const [method, target] of [
      ['FOO', '/ipfs/x'],
      ['GET', '/ipfs/x\u0000'],
      ['GET', `/ipfs/${'a'.repeat(20_000)}`],
    ]) {
      const response = await send(port, { label: 'gateway', method: method!, target: target! });
      expect(contractViolation(response), `${method} ${target!.slice(0, 20)}`).toBeNull();
    }
  });

  it('wrote nothing outside DATA_ROOT', async () => {
    expect(changes(outsideBefore, await outside())).toEqual([]);
    expect(await watched(home.path)).toEqual(watchedBefore);
  });

  it('wrote inside DATA_ROOT only into the right user’s drive folders and cookie files', async () => {
    const members = uploaders.map((m) => m.email);
    expect(dataRootViolations(insideBefore, await snapshot(dataRoot), members)).toEqual([]);
  });

  it('never returned a secret key', () => {
    console.log(`traversal corpus: ${answered.length} requests in all`);
    for (const { probe, response } of answered)
      for (const secret of secrets) expect(response?.body.includes(secret), probe.label).not.toBe(true);
  });
});
