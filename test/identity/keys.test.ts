import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  deriveG1Key,
  deriveNostrKey,
  deriveSeed,
  deriveStationWallets,
  deriveTwinKeys,
  randomCredential,
  walletPepper,
} from '../../src/identity/keys.js';
import { ORIGIN_UPLANETNAME } from '../../src/config/config.js';

// Vectors from docs/api-contract.md §4, produced by the station tool `keygen`.
describe('twin keys', () => {
  it('derives the scrypt seed and the Ğ1 key of "coucou"', async () => {
    expect(bytesToHex(await deriveSeed('coucou', 'coucou'))).toBe(
      '5f6b6766fc63f6569667a36c7c8aed580d3c03656c62ad0279eadb544ddc962c',
    );
    const g1 = await deriveG1Key('coucou', 'coucou');
    expect(g1.pubV1).toBe('5fTwfbYUtCeoaFLbyzaBYUcq46nBS26rciWJAkBugqpo');
    expect(g1.address).toBe('g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7');
  });

  it('derives NOSTR keys as SHA-256 of the seed', async () => {
    expect((await deriveNostrKey('coucou', 'coucou')).hex).toBe(
      '9da638f3ff87f550efb32ca0d363f53047ead410e6748c19eb8ccb81ba3aff27',
    );
    const jean = await deriveNostrKey('jean', 'jean');
    expect(jean.hex).toBe('2188e823f9a2905af085af74fa8476b9a444830ffe46efd4a264b8798837b17e');
    expect(jean.npub.startsWith('npub1')).toBe(true);
    expect(jean.nsec.startsWith('nsec1')).toBe(true);
  });

  it('derives the ORIGIN station wallets', async () => {
    expect(await deriveStationWallets(ORIGIN_UPLANETNAME)).toEqual({
      distribution: 'g1LBF94vApBWxJExucfEQyTRkAN1eFEnD5EFA2ZN8J1PpcdZ5',
      reserve: 'g1LbTdQ7GNtnjba8xbZEYrTECHWVp7nJfVeebscbtAEbx6cM2',
      society: 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ',
    });
  });

  it('salts a user wallet with the network name but not the NOSTR key', async () => {
    const twins = await deriveTwinKeys('coucou', 'coucou', ORIGIN_UPLANETNAME);
    expect(twins.g1.address).toBe('g1P5kZ1PdDoeBVuMEvtDMm7Bfj8G6Xb9f9KrYEFYyMFj3qQ6T');
    expect(twins.nostr.hex).toBe('9da638f3ff87f550efb32ca0d363f53047ead410e6748c19eb8ccb81ba3aff27');
    expect(walletPepper('p', ORIGIN_UPLANETNAME)).toMatch(/^p_[0-9a-f]{16}$/);
  });

  it('makes 24-character alphanumeric credentials that differ', () => {
    const a = randomCredential();
    expect(a).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(randomCredential()).not.toBe(a);
  });
});
