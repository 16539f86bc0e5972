import { BadRequestError } from '../http/errors.js';

const FORBIDDEN = /[/\\:*?"<>|\s\p{Cc}]/u;

/**
 * Normalises a user e-mail, which names the user directory, so it is also a path segment:
 * lower-cased, one `@`, a dot in the domain, no path or shell metacharacters, no `..`, ≤ 254 chars.
 * Returns null when unusable.
 */
export function normaliseEmail(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const email = input.trim().toLowerCase();
  if (email.length < 3 || email.length > 254) return null;
  if (FORBIDDEN.test(email) || email.includes('..')) return null;
  const parts = email.split('@');
  if (parts.length !== 2) return null;
  const [local, domain] = parts as [string, string];
  if (!local || local.startsWith('.') || local.endsWith('.')) return null;
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/u.test(domain) && !/^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+$/u.test(domain)) {
    return null;
  }
  return email;
}

export function requireEmail(input: unknown): string {
  const email = normaliseEmail(input);
  if (!email)
    throw new BadRequestError('INVALID_EMAIL', 'A valid e-mail address is required (name@domain.tld).');
  return email;
}
