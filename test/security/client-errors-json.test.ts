import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Every error is `{detail, code}`, also those Node's HTTP parser answers before Fastify sees a request. */
describe('errors of the HTTP layer are {detail, code}', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Writes raw bytes on a fresh connection and reads the answer until the server closes it. */
  function raw(...chunks: (string | Buffer)[]): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (chunk) => received.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(received).toString('utf8');
        const [head = '', ...rest] = text.split('\r\n\r\n');
        const [statusLine = '', ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
        );
        const bodyText = rest.join('\r\n\r\n');
        let body: unknown = bodyText;
        try {
          body = JSON.parse(bodyText);
        } catch {
          // left as text: the assertion shows it
        }
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
      });
      for (const chunk of chunks) socket.write(chunk);
    });
  }

  const errorBody = (code: string) => ({ detail: expect.any(String), code });

  it('answers a 20 KB request line with 414', async () => {
    const answer = await raw(`GET /?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(answer.status).toBe(414);
    expect(answer.headers['content-type']).toContain('application/json');
    expect(answer.body).toEqual(errorBody('URI_TOO_LONG'));
  });

  it('answers 64 KB of headers with 431', async () => {
    const headers = Array.from({ length: 64 }, (_, i) => `X-Pad-${i}: ${'v'.repeat(1000)}\r\n`).join('');
    const answer = await raw(`GET /health HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual(errorBody('HEADERS_TOO_LARGE'));
  });

  it('answers a malformed chunked body with 400', async () => {
    const answer = await raw(
      'POST /g1nostr HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      'zz\r\n{"email":"x@example.org"}\r\n0\r\n\r\n',
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(errorBody('MALFORMED_REQUEST'));
  });

  it('answers a bad request line with 400', async () => {
    const answer = await raw('THIS IS NOT HTTP\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(errorBody('MALFORMED_REQUEST'));
  });

  it('answers a URL Node accepts but longer than 8 KiB with 414, and an over-long path parameter too', async () => {
    const long = await t.app.inject({ url: `/health?pad=${'a'.repeat(9 * 1024)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual(errorBody('URI_TOO_LONG'));
    const param = await t.app.inject({ url: `/api/view/profile/${'a'.repeat(400)}` });
    expect(param.statusCode).toBe(414);
    expect(param.json()).toEqual(errorBody('URI_TOO_LONG'));
    const badUrl = await t.app.inject({ url: '/cookie/%E0%A4%A' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual(errorBody('BAD_URL'));
  });

  it('still serves ordinary requests on the same server', async () => {
    const answer = await raw('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(200);
  });
});
