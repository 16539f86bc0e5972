import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { FakeSquid } from '../economy/squid-server.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postUpload, register } from '../helpers/multipart.js';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A JSON logger whose lines the test reads back. */
function capturedLogger(level: 'info' | 'debug') {
  const lines: LogLine[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { lines, logger: createLogger({ level, format: 'json', output }) };
}

const INFO = 30;
const WARN = 40;
const ADDRESS = 'ENVcVSpfLxwL1Xa2kfmiSp1m5WBVAW1MWtqFCM3o4JZ3';

describe('what the station logs', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  /** The station's clock, which the tests may move on (the indexer's circuit breaker waits on it). */
  let skewMs = 0;
  const clock = { now: () => Date.now() + skewMs };

  async function station(level: 'info' | 'debug', env: Record<string, string> = {}) {
    const { lines, logger } = capturedLogger(level);
    skewMs = 0;
    const t: TestApp = await buildTestApp({ env, clock, overrides: { logger } });
    closing.push(() => t.close());
    return { t, lines };
  }

  it('one upload is one info line naming its CID, and no request line at the default level', async () => {
    const { t, lines } = await station('info');
    const owner = await register(t, 'logs@example.org');
    lines.length = 0;
    const res = await postUpload(t, '/api/upload', {
      npub: owner.npub,
      file: { filename: 'photo.jpg', value: Buffer.alloc(4096, 7), type: 'image/jpeg' },
      signer: owner,
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json<{ file_cid: string; new_cid: string }>();
    await t.app.drive.drain();
    const info = lines.filter((line) => line.level >= INFO);
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({
      level: INFO,
      msg: 'file uploaded',
      cid: answer.file_cid,
      root: answer.new_cid,
      size: 4096,
      path: 'Images/photo.jpg',
    });
    expect(lines.some((line) => line.msg === 'request' || /request/.test(line.msg))).toBe(false);
  });

  it('at debug, every answered request is one line, without its query string', async () => {
    const { t, lines } = await station('debug');
    await t.app.inject({ method: 'GET', url: '/health' });
    await t.app.inject({ method: 'GET', url: `/check_balance?g1pub=${ADDRESS}&secret=x` });
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests.map((line) => line.path)).toEqual(['/health', '/check_balance']);
    expect(JSON.stringify(lines)).not.toContain('secret=x');
  });

  it('an indexer outage of 50 requests is four lines: when it starts, its circuit opens, it ends, it closes', async () => {
    const squid = await FakeSquid.start();
    closing.push(() => squid.close());
    const { t, lines } = await station('info', { SQUID_URL: squid.url });
    squid.mode = 'http-500';
    for (let i = 0; i < 50; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/check_balance?g1pub=${ADDRESS}` });
      expect(res.statusCode).toBe(503);
    }
    squid.mode = 'ok';
    // After the circuit breaker's cool-down (src/economy/circuit-breaker.ts) the next read goes through.
    skewMs += 60_000;
    const back = await t.app.inject({ method: 'GET', url: `/check_balance?g1pub=${ADDRESS}` });
    expect(back.statusCode).toBe(200);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ level: WARN, msg: `indexer ${squid.url} unreachable`, kind: 'down' });
    expect(lines[1]).toMatchObject({ level: WARN, msg: 'indexer: circuit open, queries fail at once' });
    // Only the calls that reached the indexer failed there: the breaker answered the other 47 itself.
    expect(lines[2]).toMatchObject({ level: INFO, url: squid.url, failed_calls: 3 });
    expect(lines[2]!.msg).toMatch(/^indexer .* back after 3 failed calls$/);
    expect(lines[3]).toMatchObject({ level: INFO, msg: 'indexer: circuit closed, queries go through again' });
    expect(JSON.stringify(lines)).not.toContain('stack');
  });
});
