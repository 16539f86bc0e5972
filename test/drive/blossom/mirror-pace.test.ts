import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp } from '../../helpers/app.js';
import type { TestKey } from '../../helpers/nostr.js';
import { blossomToken, expectError, nostrAuth, stagedLeftovers, uploadAs } from './requests.js';
import { driveFiles, localUser, type BlossomStation } from './station.js';

/**
 * Finding (issue 43): a mirror from an origin dripping a byte every 2 s was never cut off, and held its
 * uploader's slots (429 to every later upload of that user) until the station restarted. Short configured
 * limits stand in for the real ones; only outcomes and counts are asserted.
 */
const ALICE = 'alice@example.org';
const SLOW = { timeout: 5_000, interval: 50 };

/**
 * An origin whose answers never end: `/drip` a byte every 100 ms, `/burst` 300 KiB (more than staging holds
 * before it writes) then the same drip, `/steady` 64 KiB every 100 ms. Counts the answers still open.
 */
async function endlessOrigin() {
  const open = new Set<ServerResponse>();
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    open.add(res);
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (req.url === '/burst') res.write(randomBytes(300 * 1024));
    const piece = req.url === '/steady' ? 64 * 1024 : 1;
    const timer = setInterval(() => res.write(randomBytes(piece)), 100);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    open,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Origin = Awaited<ReturnType<typeof endlessOrigin>>;

function mirror(s: BlossomStation, key: TestKey, url: string, signal?: AbortSignal) {
  return fetch(`${s.server}/mirror`, {
    method: 'PUT',
    headers: {
      authorization: nostrAuth(blossomToken(key, { x: [randomBytes(32).toString('hex')] })),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ url }),
    signal,
  });
}

async function setup(limits: Record<string, string>) {
  const origin = await endlessOrigin();
  // A listening app without a relay or bot: mirrors need neither.
  const env = {
    RATE_LIMIT_MAX: '100000',
    PUBLISH_FILE_METADATA: 'false',
    MIRROR_TRUSTED_ORIGINS: origin.url,
    // One upload at a time: a slot a mirror kept would make the next upload 429.
    UPLOAD_MAX_CONCURRENT: '1',
    ...limits,
  };
  const t = await buildTestApp({ env });
  const server = (await t.app.listen({ host: '127.0.0.1', port: 0 })).replace('localhost', '127.0.0.1');
  const s = { station: { t }, server, stop: () => t.close() } as unknown as BlossomStation;
  const alice = await localUser(s, ALICE);
  return { origin, s, alice };
}

describe('PUT /mirror from an origin that never finishes', () => {
  let origin: Origin;
  let s: BlossomStation;
  let alice: TestKey;

  beforeAll(async () => {
    ({ origin, s, alice } = await setup({
      MIRROR_DEADLINE: '3',
      MIRROR_MIN_BYTES_PER_S: '1024',
      MIRROR_RATE_WINDOW: '1',
    }));
  });
  afterAll(async () => {
    await s?.stop();
    await origin?.close();
  });

  /** Cut off with `code`: nothing kept or staged, the origin's socket closed, and the slot already free. */
  async function cutOff(path: string, code: string, staged: boolean) {
    const before = await driveFiles(s, ALICE);
    const pending = mirror(s, alice, `${origin.url}${path}`);
    if (staged) await vi.waitFor(async () => expect(await stagedLeftovers(s)).not.toEqual([]), SLOW);
    await expectError(await pending, 504, code);
    expect(await driveFiles(s, ALICE)).toEqual(before);
    expect(await stagedLeftovers(s)).toEqual([]);
    await vi.waitFor(() => expect(origin.open.size).toBe(0), SLOW);
    // The slots are given back before the refusal is sent: the next upload needs no waiting.
    const upload = await uploadAs(s, alice, randomBytes(1000));
    expect(upload.status, await upload.clone().text()).toBe(201);
  }

  it('cuts a drip off by the minimum rate (504 MIRROR_TOO_SLOW)', async () => {
    await cutOff('/drip', 'MIRROR_TOO_SLOW', false);
  });

  it('judges the rate over the last window: a fast start then a drip is cut off too, its part removed', async () => {
    await cutOff('/burst', 'MIRROR_TOO_SLOW', true);
  });

  it('cuts a fast origin that never ends off at the deadline (504 MIRROR_TIMEOUT), its part removed', async () => {
    await cutOff('/steady', 'MIRROR_TIMEOUT', true);
  });
});

describe('PUT /mirror whose client hangs up', () => {
  let origin: Origin;
  let s: BlossomStation;
  let alice: TestKey;

  // The default limits: only the client's going away can end this mirror within the test.
  beforeAll(async () => {
    ({ origin, s, alice } = await setup({}));
  });
  afterAll(async () => {
    await s?.stop();
    await origin?.close();
  });

  it('frees the upload slot and ends the origin fetch at once', async () => {
    const client = new AbortController();
    const pending = mirror(s, alice, `${origin.url}/drip`, client.signal).catch((error: unknown) => error);
    await vi.waitFor(() => expect(origin.open.size).toBe(1), SLOW);
    // The mirror holds Alice's one slot meanwhile.
    await expectError(await uploadAs(s, alice, randomBytes(1000)), 429, 'UPLOAD_CONCURRENCY_LIMITED');
    client.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(origin.open.size).toBe(0), SLOW);
    // The station hears of the hang-up on its own schedule; well within the limits that would end it anyway.
    await vi.waitFor(async () => {
      const upload = await uploadAs(s, alice, randomBytes(1000));
      expect(upload.status, await upload.clone().text()).toBe(201);
    }, SLOW);
    expect(await stagedLeftovers(s)).toEqual([]);
    expect(origin.requests).toEqual(['/drip']);
  });
});
