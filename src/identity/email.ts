import { InvalidInput } from '../errors.js';

const FORBIDDEN = /[/\\:*?"<>|\s\p{Cc}]/u;

/**
 * Recognises a user e-mail, which names the user directory, so it is also a path segment: lower-cased, one
 * `@`, a dot in the domain, no path or shell metacharacters, no `..`, ≤ 254 chars. Returns null when
 * unusable. Lenient on purpose: it also recognises directories registered before the stricter rule of
 * `registrationEmail`, which alone decides what may be created.
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

const LOCAL = /^[a-z0-9_%+-]+(\.[a-z0-9_%+-]+)*$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The e-mail a new identity may be registered under. The address becomes a directory name that shell tools
 * and scraper scripts handle, so only a conservative ASCII set passes: NFKC first (a fullwidth `ａ` or `＠`
 * typed through an input method becomes its ASCII form and is accepted as such), then lower-case, then
 * letters, digits and `._%+-` in the local part and LDH labels in the domain (an internationalised domain is
 * written in its `xn--` form). Anything else (quotes, backticks, `;`, `$`, spaces, controls, bidi
 * overrides, non-ASCII letters) is refused. Returns null when refused.
 */
export function registrationEmail(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const email = input.normalize('NFKC').trim().toLowerCase();
  if (email.length > 254 || !/^[\x21-\x7e]+$/.test(email)) return null;
  const parts = email.split('@');
  if (parts.length !== 2) return null;
  const [local, domain] = parts as [string, string];
  if (local.length > 64 || !LOCAL.test(local)) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // A numeric top-level label would make the domain an IP address.
  if (/^\d+$/.test(labels.at(-1)!)) return null;
  return normaliseEmail(email);
}

/** `normaliseEmail` or 400 INVALID_EMAIL. */
export function requireEmail(input: unknown): string {
  const email = normaliseEmail(input);
  if (!email)
    throw new InvalidInput('INVALID_EMAIL', 'A valid e-mail address is required (name@domain.tld).');
  return email;
}

/** `registrationEmail` or 400 INVALID_EMAIL. */
export function requireRegistrationEmail(input: unknown): string {
  const email = registrationEmail(input);
  if (!email)
    throw new InvalidInput(
      'INVALID_EMAIL',
      'This e-mail address cannot be registered: use letters, digits and . _ % + - before the @, and a domain of letters, digits and hyphens (xn-- form for an internationalised domain).',
    );
  return email;
}
