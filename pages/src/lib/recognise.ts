import { decode, npubEncode } from 'nostr-tools/nip19';
import { getPublicKey } from 'nostr-tools/pure';
import { normaliseEmail } from '../../../src/identity/email.js';
import { decodeG1v1, decodeSs58, encodeSs58 } from '../../../src/identity/ss58.js';

/** What a scanned text turned out to be. */
export type ScanKind =
  | 'npub'
  | 'nprofile'
  | 'nsec'
  | 'nostr-event'
  | 'g1-address'
  | 'g1-v1'
  | 'hex-key'
  | 'email'
  | 'station-link'
  | 'ipfs-link'
  | 'link'
  | 'text';

export interface Recognised {
  kind: ScanKind;
  /** The scanned text, trimmed (for dedupe). */
  raw: string;
  /** What to show: the key or address itself; a secret is masked. */
  display: string;
  /** True for secret material: shown masked, never sent, never linked. */
  secret: boolean;
  /** NOSTR public key (hex) named by the code, or derived from a secret key. */
  pubkey?: string;
  npub?: string;
  /** Ğ1 wallet, SS58 (`g1…`). */
  g1Address?: string;
  relays?: string[];
  /** http(s) URL to open, when the code is a link. */
  url?: string;
}

const HEX64 = /^[0-9a-f]{64}$/i;

/** `nostr:` URIs (NIP-21) and Ğ1 wallet URIs (`june://`, `g1:`) carry a bare key after their scheme. */
function stripScheme(text: string): string {
  return text.replace(/^nostr:/i, '').replace(/^(june|g1|duniter):(\/\/)?/i, '');
}

/** A secret shown as its kind only: not one character of the key itself. */
export function maskSecret(secret: string): string {
  return `${secret.startsWith('nsec1') ? 'nsec1' : ''}${'•'.repeat(12)}`;
}

function fromNip19(text: string): Recognised | null {
  let decoded: ReturnType<typeof decode>;
  try {
    decoded = decode(text);
  } catch {
    return null;
  }
  switch (decoded.type) {
    case 'npub':
      return { kind: 'npub', raw: text, display: text, secret: false, pubkey: decoded.data, npub: text };
    case 'nprofile': {
      const npub = npubEncode(decoded.data.pubkey);
      return {
        kind: 'nprofile',
        raw: text,
        display: npub,
        secret: false,
        pubkey: decoded.data.pubkey,
        npub,
        relays: (decoded.data.relays ?? []).filter((relay) => /^wss?:\/\//i.test(relay)),
      };
    }
    case 'nsec': {
      const pubkey = getPublicKey(decoded.data);
      decoded.data.fill(0);
      return {
        kind: 'nsec',
        raw: text,
        display: maskSecret(text),
        secret: true,
        pubkey,
        npub: npubEncode(pubkey),
      };
    }
    case 'note':
    case 'nevent':
    case 'naddr':
      return { kind: 'nostr-event', raw: text, display: text, secret: false };
    default:
      return null;
  }
}

/** A Ğ1 v1 key may carry its 3-character checksum (`<pubkey>:<checksum>`); the key alone names the wallet. */
function fromG1(text: string): Recognised | null {
  if (decodeSs58(text))
    return { kind: 'g1-address', raw: text, display: text, secret: false, g1Address: text };
  const v1 = text.split(':')[0] ?? '';
  const key = decodeG1v1(v1);
  if (key) return { kind: 'g1-v1', raw: text, display: v1, secret: false, g1Address: encodeSs58(key) };
  return null;
}

function fromUrl(text: string, stationOrigin: string): Recognised | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  // Only web links are ever opened: never javascript:, data: or file: from a code someone else printed.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const kind: ScanKind =
    url.origin === stationOrigin
      ? 'station-link'
      : /\/(ipfs|ipns)\//.test(url.pathname)
        ? 'ipfs-link'
        : 'link';
  return { kind, raw: text, display: url.href, secret: false, url: url.href };
}

/**
 * Names what a QR code holds: NOSTR keys (npub, nprofile, nsec, events), Ğ1 wallets (SS58 or v1), e-mails,
 * and links (this station, IPFS, other). Secret keys are recognised so they can be flagged and kept local.
 */
export function recognise(scanned: string, stationOrigin: string): Recognised {
  const raw = scanned.trim();
  const text = stripScheme(raw);
  const found =
    (/^n(pub|profile|sec|ote|event|addr)1/i.test(text) ? fromNip19(text.toLowerCase()) : null) ??
    fromG1(text) ??
    fromUrl(raw, stationOrigin);
  if (found) return { ...found, raw };
  if (HEX64.test(text)) {
    // 64 hex characters may be a public key or a secret one: treated as secret, shown masked.
    return { kind: 'hex-key', raw, display: maskSecret(text), secret: true };
  }
  // An e-mail as the station itself accepts one (the balance link names the user by it).
  const email = normaliseEmail(text);
  if (email) return { kind: 'email', raw, display: email, secret: false };
  return { kind: 'text', raw, display: raw.length > 200 ? `${raw.slice(0, 200)}…` : raw, secret: false };
}
