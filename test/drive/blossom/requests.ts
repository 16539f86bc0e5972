import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { finalizeEvent, getEventHash, type NostrEvent } from 'nostr-tools';
import { expect } from 'vitest';
import type { TestKey } from '../../helpers/nostr.js';
import type { BlossomStation } from './station.js';

/** Raw HTTP against a listening station: the exact statuses, headers and bodies a Blossom client sees. */

export const sha256Hex = (bytes: Uint8Array | string): string =>
  createHash('sha256').update(bytes).digest('hex');

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export const EMPTY_SHA256 = sha256Hex(Buffer.alloc(0));

export interface TokenOptions {
  /** The `t` tag; null leaves it out. Default `upload`. */
  verb?: string | null;
  x?: string[];
  /** Unix seconds; null leaves the tag out. Default ten minutes after `createdAt`. */
  expiration?: number | null;
  createdAt?: number;
  server?: string[];
  kind?: number;
}

/** A kind-24242 token (BUD-11). Random content: two tokens signed in the same second are different events. */
export function blossomToken(key: TestKey, options: TokenOptions = {}): NostrEvent {
  const createdAt = options.createdAt ?? nowSeconds();
  const tags: string[][] = [];
  const verb = options.verb === undefined ? 'upload' : options.verb;
  if (verb !== null) tags.push(['t', verb]);
  for (const x of options.x ?? []) tags.push(['x', x]);
  for (const server of options.server ?? []) tags.push(['server', server]);
  const expiration = options.expiration === undefined ? createdAt + 600 : options.expiration;
  if (expiration !== null) tags.push(['expiration', String(expiration)]);
  return finalizeEvent(
    {
      kind: options.kind ?? 24242,
      created_at: createdAt,
      tags,
      content: `test token ${randomBytes(8).toString('hex')}`,
    },
    key.sk,
  );
}

/** `Nostr <base64url(JSON event)>`, as blossom-client-sdk's encodeAuthorizationHeader writes it. */
export function nostrAuth(event: object): string {
  return `Nostr ${Buffer.from(JSON.stringify(event)).toString('base64url')}`;
}

/** The event of `signer` claimed by `other`: the pubkey swapped, and the id recomputed when asked. */
export function forgedFor(event: NostrEvent, other: TestKey, recomputeId: boolean): NostrEvent {
  const forged = {
    id: event.id,
    pubkey: other.hex,
    created_at: event.created_at,
    kind: event.kind,
    tags: event.tags,
    content: event.content,
    sig: event.sig,
  };
  if (recomputeId) forged.id = getEventHash(forged);
  return forged;
}

export interface ErrorAnswer {
  status: number;
  body: { detail: string; code: string };
  reason: string;
}

/**
 * Checks the error contract: `status`, a JSON `{detail, code}` body (and nothing else) with `code`, and the
 * detail again in `X-Reason`.
 */
export async function expectError(response: Response, status: number, code?: string): Promise<ErrorAnswer> {
  const text = await response.text();
  expect(response.status, `${response.status} ${text}`).toBe(status);
  expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body = JSON.parse(text) as { detail: string; code: string };
  expect(body).toEqual({ detail: expect.any(String), code: code ?? expect.any(String) });
  expect(body.detail.length).toBeGreaterThan(0);
  const reason = response.headers.get('x-reason');
  expect(reason, 'X-Reason header').toBeTruthy();
  expect(reason).toBe(body.detail.replace(/[^\x20-\x7e]/g, '?').slice(0, 300));
  return { status: response.status, body, reason: reason! };
}

export function putUpload(
  s: Pick<BlossomStation, 'server'>,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${s.server}/upload`, { method: 'PUT', body, headers });
}

/** An upload with a valid token of `key` for these bytes. */
export function uploadAs(
  s: Pick<BlossomStation, 'server'>,
  key: TestKey,
  bytes: Uint8Array | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const token = blossomToken(key, { x: [sha256Hex(bytes)] });
  return putUpload(s, bytes, { authorization: nostrAuth(token), ...headers });
}

/** The staging area of the station's drives: a refused upload must leave nothing there. */
export async function stagedLeftovers(s: BlossomStation): Promise<string[]> {
  const dir = join(s.station.t.config.dataRoot, '.drive-staging');
  return readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}

export async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}
