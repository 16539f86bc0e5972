import { describe, expect, it } from 'vitest';
import { newKey, signEvent } from '../../test/helpers/nostr.js';
import {
  forgetVerifiedEvents,
  registerVerifiedSource,
  verificationStats,
  verifierBackend,
  verifySignature,
} from './verify.js';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('verifySignature', () => {
  it('uses the wasm backend', () => {
    expect(verifierBackend).toBe('wasm');
  });

  it('checks a signature once per id and signature', () => {
    forgetVerifiedEvents();
    const event = signEvent(newKey(), { kind: 1, content: 'hello' });
    const before = { ...verificationStats };
    expect(verifySignature(copy(event))).toBe(true);
    expect(verifySignature(copy(event))).toBe(true);
    expect(verificationStats.checks - before.checks).toBe(1);
    expect(verificationStats.cacheHits - before.cacheHits).toBe(1);
  });

  it('never lets an altered copy of a verified event through the cache', () => {
    const event = signEvent(newKey(), { kind: 1, content: 'original' });
    expect(verifySignature(copy(event))).toBe(true);
    expect(verifySignature({ ...copy(event), content: 'altered' })).toBe(false);
    expect(
      verifySignature({ ...copy(event), sig: copy(event).sig.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }),
    ).toBe(false);
  });

  it('trusts a registered source only for the same id and signature', () => {
    forgetVerifiedEvents();
    const event = signEvent(newKey(), { kind: 1, content: 'stored earlier' });
    const unregister = registerVerifiedSource((id) => (id === event.id ? event.sig : undefined));
    try {
      const before = verificationStats.checks;
      expect(verifySignature(copy(event))).toBe(true);
      expect(verificationStats.checks).toBe(before);
      expect(verifySignature({ ...copy(event), tags: [['t', 'x']] })).toBe(false);
    } finally {
      unregister();
    }
  });
});
