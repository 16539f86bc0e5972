import type { FastifyRequest } from 'fastify';
import { InvalidInput } from '../../errors.js';
import { isSha256 } from './auth.js';

/** `X-SHA-256` (BUD-02, BUD-06): the hash the client says its body has, lowercased; 400 when malformed. */
export function declaredHash(request: FastifyRequest): string | undefined {
  const value = request.headers['x-sha-256'];
  if (value === undefined) return undefined;
  const hash = String(value).trim().toLowerCase();
  if (!isSha256(hash))
    throw new InvalidInput('INVALID_SHA256', {
      en: 'X-SHA-256 must be 64 hex characters.',
      fr: 'X-SHA-256 doit faire 64 caractères hexadécimaux.',
    });
  return hash;
}

export function declaredLength(request: FastifyRequest, header: string): number | undefined {
  const value = request.headers[header];
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(String(value).trim()))
    throw new InvalidInput('INVALID_LENGTH', {
      en: `${header} must be a byte count.`,
      fr: `${header} doit être un nombre d’octets.`,
    });
  return Number(value);
}

/** Whether a request may publish its upload's NIP-94 event (`X-Publish-Metadata: false` says no). */
export function wantsAnnouncement(request: FastifyRequest): boolean {
  return !/^(0|false|no|off)$/i.test(String(request.headers['x-publish-metadata'] ?? '').trim());
}
