import { describe, expect, it } from 'vitest';
import { normaliseEmail } from '../../src/identity/email.js';

describe('normaliseEmail', () => {
  it('lower-cases and trims', () => {
    expect(normaliseEmail('  Alice@Example.ORG ')).toBe('alice@example.org');
  });

  it.each([
    '../x@y.z',
    'a/b@c.d',
    'a\\b@c.d',
    '',
    'no-at.example.org',
    'two@@example.org',
    'a@b@c.org',
    'user@nodot',
    'user@exa..mple.org',
    'us er@example.org',
    'a*b@c.d',
    'a|b@c.d',
    '.hidden@example.org',
    `${'a'.repeat(250)}@b.cd`,
  ])('refuses %j', (email) => {
    expect(normaliseEmail(email)).toBeNull();
  });

  it('refuses non-strings', () => {
    expect(normaliseEmail(undefined)).toBeNull();
    expect(normaliseEmail(42)).toBeNull();
  });
});
