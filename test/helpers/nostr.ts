import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { finalizeEvent, generateSecretKey, getPublicKey, nip19, type EventTemplate } from 'nostr-tools';

export interface TestKey {
  sk: Uint8Array;
  hex: string;
  npub: string;
}

export function newKey(): TestKey {
  const sk = generateSecretKey();
  const hex = getPublicKey(sk);
  return { sk, hex, npub: nip19.npubEncode(hex) };
}

export function keyFromSecret(sk: Uint8Array): TestKey {
  const hex = getPublicKey(sk);
  return { sk, hex, npub: nip19.npubEncode(hex) };
}

export function signEvent(key: TestKey, template: Partial<EventTemplate> & { kind: number }) {
  const given = Object.fromEntries(Object.entries(template).filter(([, value]) => value !== undefined));
  return finalizeEvent(
    {
      created_at: Math.floor(Date.now() / 1000),
      tags: [],
      content: '',
      ...given,
    } as unknown as EventTemplate,
    key.sk,
  );
}

export function authorizationHeader(event: object): string {
  return `Nostr ${Buffer.from(JSON.stringify(event)).toString('base64')}`;
}

/** A NIP-98 `Authorization` header for one request; `body` adds the payload tag. */
export function nip98Header(
  key: TestKey,
  url: string,
  method: string,
  options: { body?: string | Uint8Array; createdAt?: number } = {},
): string {
  // A nonce makes two identical requests in the same second carry different events (each is single-use).
  const tags = [
    ['u', url],
    ['method', method.toUpperCase()],
    ['nonce', bytesToHex(crypto.getRandomValues(new Uint8Array(8)))],
  ];
  if (options.body !== undefined) {
    const bytes = typeof options.body === 'string' ? new TextEncoder().encode(options.body) : options.body;
    tags.push(['payload', bytesToHex(sha256(bytes))]);
  }
  return authorizationHeader(
    signEvent(key, { kind: 27235, tags, created_at: options.createdAt ?? Math.floor(Date.now() / 1000) }),
  );
}
