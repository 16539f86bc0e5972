import type { FastifyRequest } from 'fastify';
import { QuotaExceededError } from '../drive/quota.js';
import type { UserRecord } from '../identity/user-files.js';

/**
 * Bytes a multipart upload carries besides its file: the fields app.ts allows (10 of 64 KiB), each part's
 * headers and the boundaries. A body announced larger than its file limit plus this cannot hold a file
 * within the limit.
 */
export const FORM_ALLOWANCE_BYTES = 1024 * 1024;

/**
 * What an upload route takes, known before its body: a `Content-Length` above it is refused at once (413),
 * instead of after the body has streamed in, and the connection closed
 * (docs/decisions.md, "Refused before the body").
 */
export interface AnnouncedLimit {
  /** The largest file the route takes from anyone. */
  maxFileBytes: number;
  /** Room for a file of this owner's (the drive's room left); asked only when the owner is known before the body. */
  roomOf?: (pubkey: string) => Promise<number>;
  /** Besides the file: the form around it, and files bound elsewhere than the limits above (cookie files). */
  allowanceBytes: number;
  refuse: () => Error;
}

/** The length the client announced: Content-Length without chunked encoding, else null (not known). */
export function announcedLength(request: Pick<FastifyRequest, 'headers'>): number | null {
  const { headers } = request;
  if (headers['transfer-encoding'] !== undefined) return null;
  const value = headers['content-length'];
  if (value === undefined || !/^\d{1,16}$/.test(value)) return null;
  return Number(value);
}

/**
 * Throws `limit.refuse` when the announced body cannot fit: above the route's file limit, or above the room
 * of an owner its Authorization header names (checked as the form would check it when the file starts).
 */
export async function refuseAnnouncedOversize(
  request: FastifyRequest,
  limit: AnnouncedLimit,
  requireProof?: boolean,
): Promise<void> {
  const length = announcedLength(request);
  // A body this small cannot exceed any room: no need to identify its owner now.
  if (length === null || length <= limit.allowanceBytes) return;
  if (length > limit.maxFileBytes + limit.allowanceBytes) throw limit.refuse();
  if (!limit.roomOf || !request.headers.authorization) return;
  const pubkey = await request.precheckOwner({ npub: null, requireProof });
  if (!pubkey) return;
  const room = Math.max(0, await limit.roomOf(pubkey));
  if (length > room + limit.allowanceBytes) throw limit.refuse();
}

interface DriveRoom {
  drive: { readonly quotaBytes: number; usedBytes(user: UserRecord): Promise<number> };
  users: { findByHex(hex: string): Promise<UserRecord | null> };
}

/**
 * The announced limit of an upload bound for its owner's drive: the quota from anyone, the room left to an
 * owner named by the Authorization header. `extraBytes`: files the route sends elsewhere (cookie files).
 */
export function driveAnnouncedLimit(app: DriveRoom, extraBytes = 0): AnnouncedLimit {
  return {
    maxFileBytes: app.drive.quotaBytes,
    allowanceBytes: FORM_ALLOWANCE_BYTES + extraBytes,
    roomOf: async (pubkey) => {
      const user = await app.users.findByHex(pubkey);
      return user ? app.drive.quotaBytes - (await app.drive.usedBytes(user)) : app.drive.quotaBytes;
    },
    refuse: () => new QuotaExceededError(app.drive.quotaBytes),
  };
}

/**
 * A refusal sent before the request's body was read (a 413 on its announced length, a 401 before the file):
 * `Connection: close`, so that the client stops sending, where Node would read the rest to the end to keep
 * the connection for another request.
 */
export function closeIfBodyUnread(
  request: FastifyRequest,
  reply: { header(name: string, value: string): unknown },
) {
  const { headers, raw } = request;
  const hasBody = headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
  if (hasBody && !raw.complete) reply.header('connection', 'close');
}
