import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { decodeG1v1, decodeSs58, encodeSs58, toG1Address } from '../../src/identity/ss58.js';

const V1 = '5fTwfbYUtCeoaFLbyzaBYUcq46nBS26rciWJAkBugqpo';
const SS58 = 'g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7';

describe('SS58 with the Ğ1 prefix 4450', () => {
  it('round-trips a public key', () => {
    const key = base58.decode(V1);
    expect(encodeSs58(key)).toBe(SS58);
    expect(decodeSs58(SS58)).toEqual(key);
  });

  it('converts v1 keys and passes SS58 through', () => {
    expect(toG1Address(V1)).toBe(SS58);
    expect(toG1Address(SS58)).toBe(SS58);
  });

  it('rejects a bad checksum, another prefix and junk', () => {
    const tampered = SS58.slice(0, -1) + (SS58.endsWith('Y') ? 'Z' : 'Y');
    expect(decodeSs58(tampered)).toBeNull();
    expect(decodeSs58(encodeSs58(base58.decode(V1), 42))).toBeNull();
    expect(toG1Address('not a key')).toBeNull();
    expect(toG1Address('')).toBeNull();
    expect(decodeG1v1('0OIl')).toBeNull();
  });
});
