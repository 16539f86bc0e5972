import { hexToBytes } from '@noble/hashes/utils.js';
import { decode, npubEncode } from 'nostr-tools/nip19';
import { finalizeEvent, getPublicKey, type EventTemplate, type NostrEvent } from 'nostr-tools/pure';

/** NIP-07: what a NOSTR browser extension (nos2x, Alby, …) puts on `window.nostr`. */
export interface Nip07 {
  getPublicKey(): Promise<string>;
  signEvent(event: EventTemplate): Promise<NostrEvent>;
}

declare global {
  interface Window {
    nostr?: Nip07;
  }
}

/** Signs events for the page: through the extension, or with a key typed in and kept in page memory only. */
export interface Signer {
  readonly source: 'nip07' | 'nsec';
  /** Hex public key. */
  readonly pubkey: string;
  readonly npub: string;
  sign(template: EventTemplate): Promise<NostrEvent>;
  /** Drops the key material (a typed key is zeroed). */
  forget(): void;
}

export class SignerError extends Error {
  constructor(
    readonly reason: 'no-extension' | 'extension-refused' | 'bad-key',
    message: string,
  ) {
    super(message);
  }
}

export function hasExtension(): boolean {
  return typeof window.nostr?.signEvent === 'function';
}

export async function nip07Signer(): Promise<Signer> {
  const nostr = window.nostr;
  if (!nostr || !hasExtension()) throw new SignerError('no-extension', 'No NIP-07 extension');
  let pubkey: string;
  try {
    pubkey = await nostr.getPublicKey();
  } catch {
    throw new SignerError('extension-refused', 'The extension refused to give the public key');
  }
  if (!/^[0-9a-f]{64}$/.test(pubkey)) throw new SignerError('extension-refused', 'The extension gave no key');
  return {
    source: 'nip07',
    pubkey,
    npub: npubEncode(pubkey),
    async sign(template) {
      try {
        return await nostr.signEvent(template);
      } catch {
        throw new SignerError('extension-refused', 'The extension refused to sign');
      }
    },
    forget() {},
  };
}

/** An `nsec1…` (or 64 hex) typed by the user. It is never sent, never stored: only this closure holds it. */
export function secretKeySigner(typed: string): Signer {
  const text = typed.trim();
  let secret: Uint8Array;
  try {
    if (/^[0-9a-fA-F]{64}$/.test(text)) secret = hexToBytes(text);
    else {
      const decoded = decode(text);
      if (decoded.type !== 'nsec') throw new Error('not an nsec');
      secret = decoded.data;
    }
  } catch {
    throw new SignerError('bad-key', 'Not a secret key');
  }
  const pubkey = getPublicKey(secret);
  return {
    source: 'nsec',
    pubkey,
    npub: npubEncode(pubkey),
    async sign(template) {
      return finalizeEvent(template, secret);
    },
    forget() {
      secret.fill(0);
    },
  };
}
