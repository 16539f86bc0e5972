import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { Busboy } from '@fastify/busboy';
import { CarBlockIterator } from '@ipld/car/iterator';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { StationError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/temp.js';
import { openEmbedded } from './open-store.js';

/**
 * A stand-in for Kubo's RPC API (`/api/v0/…`) speaking its wire format: POST only, multipart uploads,
 * NDJSON/JSON answers with Kubo's field names, raw bytes for `block/get`, errors as HTTP 500
 * `{Message, Code, Type}`. Content is kept by an embedded store (an LMDB environment of its own), whose CIDs
 * are checked against `ipfs_cid` elsewhere; like Kubo, it stores what it is sent at once.
 */
export interface FakeKubo {
  url: string;
  requests: Array<{ path: string; params: URLSearchParams }>;
  /** Paths whose `files/stat` never answers (a CID Kubo keeps looking for on the network). */
  hang: Set<string>;
  /** Blocks received by `dag/import`, by CIDv0, each checked against its bytes on arrival. */
  imported: Map<string, Uint8Array>;
  close(): Promise<void>;
}

type Handler = (params: URLSearchParams, req: IncomingMessage, res: ServerResponse) => Promise<void>;

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-chunked-output': '1' });
  res.end(`${JSON.stringify(body)}\n`);
}

function kuboError(res: ServerResponse, message: string): void {
  json(res, { Message: message, Code: 0, Type: 'error' }, 500);
}

/** The first file part of a multipart body, as a stream, without buffering it. */
function filePart(req: IncomingMessage): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const busboy = Busboy({ headers: req.headers as { 'content-type': string } });
    busboy.on('file', (_field, stream) => resolve(stream));
    busboy.on('error', reject);
    busboy.on('finish', () => reject(new Error('no file part')));
    req.pipe(busboy);
  });
}

/** Kubo's messages for the store errors the embedded store raises. */
function messageFor(error: unknown, arg: string): string {
  const code = (error as StationError).code;
  if (code === 'CONTENT_NOT_FOUND') return `no link named "${arg.split('/').at(-1)}" under ${arg}`;
  if (code === 'NOT_A_FILE') return 'this dag node is a directory';
  if (code === 'INVALID_IPFS_PATH')
    return `invalid path "${arg}": invalid cid: selected encoding not supported`;
  return (error as Error).message;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

export async function startFakeKubo(): Promise<FakeKubo> {
  const dir = await tempDir('fake-kubo-');
  const repo = await openEmbedded(join(dir.path, 'repo'));
  const { store } = repo;
  const requests: FakeKubo['requests'] = [];
  const hang = new Set<string>();
  const imported = new Map<string, Uint8Array>();
  const arg = (params: URLSearchParams) => (params.get('arg') ?? '').replace(/^\/ipfs\//, '');

  const handlers: Record<string, Handler> = {
    add: async (params, req, res) => {
      const file = await filePart(req);
      const added = await store.add(file, { pin: params.get('pin') !== 'false' });
      json(res, { Name: added.cid, Hash: added.cid, Size: String(added.dagSize) });
    },
    cat: async (params, _req, res) => {
      const offset = params.has('offset') ? Number(params.get('offset')) : undefined;
      const length = params.has('length') ? Number(params.get('length')) : undefined;
      const source = store.cat(arg(params), { offset, length })[Symbol.asyncIterator]();
      const first = await source.next(); // errors surface before the 200, as in Kubo
      res.writeHead(200, { 'content-type': 'text/plain', 'x-stream-output': '1' });
      if (!first.done) res.write(first.value);
      for (let next = await source.next(); !next.done; next = await source.next()) {
        if (!res.write(next.value)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    },
    'files/stat': async (params, _req, res) => {
      if (hang.has(arg(params))) return; // never answers
      const stat = await store.stat(arg(params));
      const links = stat.type === 'directory' ? (await store.ls(arg(params))).length : 0;
      json(res, {
        Hash: stat.cid,
        Size: stat.size,
        CumulativeSize: stat.dagSize,
        Blocks: links,
        Type: stat.type,
        WithLocality: false,
      });
    },
    ls: async (params, _req, res) => {
      const entries = await store.ls(arg(params));
      const Links = entries.map((e) => ({
        Name: e.name,
        Hash: e.cid,
        Size: e.size,
        Type: e.type === 'directory' ? 1 : 2,
        Target: '',
      }));
      json(res, { Objects: [{ Hash: params.get('arg'), Links }] });
    },
    'block/put': async (params, req, res) => {
      if (params.get('cid-codec') !== 'dag-pb') return kuboError(res, 'unsupported cid-codec');
      const chunks: Buffer[] = [];
      for await (const chunk of await filePart(req)) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      const cid = CID.parse(await store.putBlock(bytes)).toV1();
      json(res, { Key: cid.toString(), Size: bytes.length });
    },
    'block/get': async (params, _req, res) => {
      const cid = CID.parse(arg(params)).toV0().toString();
      const bytes = await store.getBlock(cid).catch((error: unknown) => {
        if ((error as StationError).code !== 'CONTENT_NOT_FOUND') throw error;
        return null;
      });
      if (!bytes) return kuboError(res, `block was not found locally (offline): ipld: could not find ${cid}`);
      res.writeHead(200, { 'content-type': 'text/plain', 'x-stream-output': '1' });
      res.end(bytes);
    },
    'pin/add': async (params, _req, res) => {
      await store.pin(arg(params));
      json(res, { Pins: [arg(params)] });
    },
    'pin/rm': async (params, _req, res) => {
      if (!(await store.pins()).includes(arg(params)))
        return kuboError(res, 'not pinned or pinned indirectly');
      await store.unpin(arg(params));
      json(res, { Pins: [arg(params)] });
    },
    'pin/ls': async (params, _req, res) => {
      const pins = await store.pins();
      // Kubo answers `pin ls <cid>…` with an error for the first one not pinned, before any line.
      const asked = params.getAll('arg').map((cid) => CID.parse(cid).toV0().toString());
      const notPinned = asked.find((cid) => !pins.includes(cid));
      if (notPinned) return kuboError(res, `path '${notPinned}' is not pinned`);
      res.writeHead(200, { 'content-type': 'application/json', 'x-chunked-output': '1' });
      for (const cid of asked.length > 0 ? asked : pins)
        res.write(`${JSON.stringify({ Cid: cid, Type: 'recursive', Name: '' })}\n`);
      res.end();
    },
    'dag/import': async (params, req, res) => {
      const blocks = await CarBlockIterator.fromIterable(await filePart(req));
      for await (const { cid, bytes } of blocks) {
        const digest = await sha256.digest(bytes);
        if (cid.multihash.code !== sha256.code || !equalBytes(digest.digest, cid.multihash.digest))
          return kuboError(res, `block ${cid.toString()}: its bytes do not match its CID`);
        const v0 = await store.putBlock(bytes);
        imported.set(v0, bytes);
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-chunked-output': '1' });
      if (params.get('pin-roots') !== 'false') {
        for (const root of await blocks.getRoots()) {
          await store.pin(root.toString());
          res.write(
            `${JSON.stringify({ Root: { Cid: { '/': root.toV1().toString() }, PinErrorMsg: '' } })}\n`,
          );
        }
      }
      res.end();
    },
    version: async (_params, _req, res) =>
      json(res, { Version: '0.36.0', Commit: '', Repo: '16', System: 'amd64/linux', Golang: 'go1.24.5' }),
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://kubo');
    const name = url.pathname.replace(/^\/api\/v0\//, '');
    requests.push({ path: name, params: url.searchParams });
    if (req.method !== 'POST') {
      res.writeHead(405).end('405 - Method Not Allowed');
      return;
    }
    const handler = handlers[name];
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
      return;
    }
    handler(url.searchParams, req, res).catch((error: unknown) => {
      if (!res.headersSent) kuboError(res, messageFor(error, url.searchParams.get('arg') ?? ''));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hang,
    imported,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await repo.close();
      await dir.cleanup();
    },
  };
}
