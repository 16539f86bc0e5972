import { nip19 } from 'nostr-tools';
import { describe, expect, it } from 'vitest';
import { recognise } from '../../pages/src/lib/recognise.js';
import { newKey } from '../helpers/nostr.js';

const STATION = 'https://station.example.org';
const WALLET = 'g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7';
const WALLET_V1 = '5fTwfbYUtCeoaFLbyzaBYUcq46nBS26rciWJAkBugqpo';
const kindOf = (text: string) => recognise(text, STATION).kind;

/** What the scan page calls each kind of QR code content (pure code, run here without a browser). */
describe('recognising scanned codes', () => {
  it('NOSTR keys: npub (bare or nostr: URI), nprofile with its relays, events', () => {
    const key = newKey();
    expect(recognise(`nostr:${key.npub}`, STATION)).toMatchObject({
      kind: 'npub',
      pubkey: key.hex,
      secret: false,
    });
    const nprofile = nip19.nprofileEncode({
      pubkey: key.hex,
      relays: ['wss://relay.example.org', 'javascript:x'],
    });
    expect(recognise(nprofile, STATION)).toMatchObject({
      kind: 'nprofile',
      npub: key.npub,
      relays: ['wss://relay.example.org'],
    });
    expect(kindOf(nip19.noteEncode('a'.repeat(64)))).toBe('nostr-event');
    expect(kindOf('npub1notvalid')).toBe('text');
  });

  it('secret keys are flagged and masked, with the public key they belong to', () => {
    const key = newKey();
    const nsec = nip19.nsecEncode(key.sk);
    const found = recognise(nsec, STATION);
    expect(found).toMatchObject({
      kind: 'nsec',
      secret: true,
      npub: key.npub,
      display: `nsec1${'•'.repeat(12)}`,
    });
    expect(JSON.stringify({ ...found, raw: '' })).not.toContain(nsec.slice(5, 20));
    const hex = recognise('ab'.repeat(32), STATION);
    expect(hex).toMatchObject({ kind: 'hex-key', secret: true });
    expect(hex.display).not.toContain('ab');
  });

  it('Ğ1 wallets: SS58 addresses, v1 keys with or without checksum and wallet URIs, all named by SS58', () => {
    expect(recognise(WALLET, STATION)).toMatchObject({ kind: 'g1-address', g1Address: WALLET });
    expect(recognise(WALLET_V1, STATION)).toMatchObject({ kind: 'g1-v1', g1Address: WALLET });
    expect(recognise(`june://${WALLET_V1}:8Kz`, STATION)).toMatchObject({
      kind: 'g1-v1',
      display: WALLET_V1,
    });
    // One character changed: the SS58 checksum fails, and it is not a 32-byte v1 key either.
    expect(kindOf(`${WALLET.slice(0, -1)}8`)).toBe('text');
  });

  it('links: this station, IPFS, others; nothing but http(s) is ever a link', () => {
    expect(recognise(`${STATION}/check_balance?g1pub=${WALLET}&html=1`, STATION)).toMatchObject({
      kind: 'station-link',
      url: `${STATION}/check_balance?g1pub=${WALLET}&html=1`,
    });
    expect(kindOf('https://ipfs.example.org/ipns/k51qzi5uqu5dl/')).toBe('ipfs-link');
    expect(kindOf('https://example.com/')).toBe('link');
    const script = recognise('javascript:alert(1)', STATION);
    expect(script.kind).toBe('text');
    expect(script.url).toBeUndefined();
    expect(recognise('data:text/html,<b>x</b>', STATION).kind).toBe('text');
  });

  it('e-mails and plain text', () => {
    expect(recognise(' Friend@Example.org ', STATION)).toMatchObject({
      kind: 'email',
      display: 'friend@example.org',
    });
    // The station's own e-mail rule (src/identity/email.ts): what it would refuse is no e-mail here either.
    expect(kindOf('friend@example..org')).toBe('text');
    expect(kindOf('fr"iend@example.org')).toBe('text');
    const long = recognise('x'.repeat(500), STATION);
    expect(long).toMatchObject({ kind: 'text' });
    expect(long.display).toHaveLength(201);
  });
});
