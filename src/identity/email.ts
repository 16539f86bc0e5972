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

/**
 * RFC 5322's dot-atom (atext runs joined by single dots) without the four atext characters a path segment
 * must not hold: `/` (it would make the directory two), and `*`, `?`, `|`, which `normaliseEmail`, get_cookie.sh
 * and the scraper scripts refuse in a directory name (glob and pipe characters). Lower case: the address is
 * lower-cased before it is checked.
 */
const ATEXT = "[a-z0-9!#$%&'+=^_`{}~-]";
const LOCAL = new RegExp(`^${ATEXT}+(\\.${ATEXT}+)*$`);
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The e-mail a new identity may be registered under. The address becomes a directory name, so only ASCII
 * passes: NFKC first (a fullwidth `ａ` or `＠` typed through an input method becomes its ASCII form and is
 * accepted as such), then lower-case, then a dot-atom local part (`LOCAL`: `o'hara`, `a+b=c`, `{x}` pass;
 * no `/ * ? |`, no leading, trailing or double dot) and LDH labels in the domain (an internationalised domain
 * is written in its `xn--` form). Anything else (double quotes, `;`, `( )`, spaces, controls, bidi overrides,
 * non-ASCII letters) is refused. Returns null when refused. A `'` or `$` may reach a directory name: the
 * station never hands an address to a shell (scripts and payment commands get it as one argument, no shell;
 * docs/api-contract.md §3).
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
    throw new InvalidInput('INVALID_EMAIL', {
      en: 'A valid e-mail address is required (name@domain.tld).',
      fr: 'Une adresse e-mail valide est requise (nom@domaine.tld).',
    });
  return email;
}

/** `registrationEmail` or 400 INVALID_EMAIL. */
export function requireRegistrationEmail(input: unknown): string {
  const email = registrationEmail(input);
  if (!email)
    throw new InvalidInput('INVALID_EMAIL', {
      en: "This e-mail address cannot be registered: before the @, letters, digits and ! # $ % & ' + - = ^ _ ` { } ~ in dot-separated runs (no / * ? |); after it, a domain of letters, digits and hyphens (xn-- form for an internationalised domain).",
      fr: "Cette adresse e-mail ne peut pas être inscrite : avant le @, des lettres, des chiffres et ! # $ % & ' + - = ^ _ ` { } ~ en suites séparées par des points (sans / * ? |) ; après, un domaine de lettres, de chiffres et de tirets (forme xn-- pour un domaine internationalisé).",
    });
  return email;
}
