import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { multipart, postUpload, register, type Owner } from '../helpers/multipart.js';
import { nip98Header } from '../helpers/nostr.js';

const MB = 1024 * 1024;
const BOUNDARY = '----stationAnnounced';

interface RawAnswer {
  head: string;
  body: { detail?: string; code?: string };
}

/**
 * Sends the request line, `headers` and only `sent` bytes of a body announced as `announced` bytes over a raw
 * socket, then waits for the answer, and for the server to end the connection, without sending the rest.
 */
async function announce(
  port: number,
  path: string,
  headers: Record<string, string>,
  announced: number,
  sent: number,
): Promise<RawAnswer> {
  const socket: Socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const lines = [`POST ${path} HTTP/1.1`, 'Host: localhost', `Content-Length: ${announced}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const formHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`;
  socket.write(`${lines.join('\r\n')}\r\n\r\n${formHead}`);
  socket.write(Buffer.alloc(sent - formHead.length, 7));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  await once(socket, 'end');
  const text = Buffer.concat(chunks).toString();
  const [head = '', body = ''] = text.split('\r\n\r\n');
  socket.destroy();
  return { head, body: JSON.parse(body) as RawAnswer['body'] };
}

describe('a body announced larger than its limit', () => {
  let t: TestApp;
  let port: number;
  let owner: Owner;
  /** Bytes the server read on each connection, as its sockets report them once closed. */
  const readBySocket: number[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ env: { DRIVE_QUOTA_MB: '5' } });
    owner = await register(t, 'announced@example.org');
    t.app.server.on('connection', (socket: Socket) =>
      socket.once('close', () => readBySocket.push(socket.bytesRead)),
    );
    const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = Number(new URL(url).port);
  });
  afterAll(() => t.close());

  const lastRead = async () => {
    // The server's socket closes a moment after the client saw its end.
    for (let i = 0; i < 50 && readBySocket.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    return readBySocket.splice(0).at(-1) ?? Number.NaN;
  };

  it('is refused with 413 before the body is read, and the connection closed', async () => {
    const answer = await announce(
      port,
      '/api/upload',
      { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      734 * MB,
      4096,
    );
    expect(answer.head).toMatch(/^HTTP\/1.1 413/);
    expect(answer.head).toMatch(/\r\nconnection: close/i);
    expect(answer.body).toMatchObject({ code: 'QUOTA_EXCEEDED', detail: expect.any(String) });
    // Headers and the few KB sent: nothing like the 734 MB announced.
    expect(await lastRead()).toBeLessThan(64 * 1024);
  });

  it("is refused against the owner's room left when the Authorization header names the owner", async () => {
    const filled = await postUpload(t, '/api/upload', {
      npub: owner.npub,
      file: { filename: 'three.bin', value: Buffer.alloc(3 * MB, 1) },
      signer: owner,
    });
    expect(filled.statusCode).toBe(200);
    // Within the 5 MB quota, beyond the 2 MB left (plus the form's allowance).
    const answer = await announce(
      port,
      '/upload2ipfs',
      {
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        Authorization: nip98Header(owner, 'http://localhost/upload2ipfs', 'POST'),
      },
      Math.round(4.5 * MB),
      4096,
    );
    expect(answer.head).toMatch(/^HTTP\/1.1 413/);
    expect(answer.body).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(await lastRead()).toBeLessThan(64 * 1024);
  });

  it('still takes a body announced within the limit', async () => {
    const { body, contentType } = multipart([
      { name: 'npub', value: owner.npub },
      { name: 'file', filename: 'small.txt', value: Buffer.from('small') },
    ]);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body,
      headers: {
        'content-type': contentType,
        authorization: nip98Header(owner, 'http://localhost/api/upload', 'POST', { body }),
      },
    });
    expect(answer.statusCode).toBe(200);
  });
});
