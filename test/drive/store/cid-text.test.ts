import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { cidText, parsedCid } from '../../../src/drive/store/cid-text.js';

describe('CIDs and their text', () => {
  it('hands back the CID a text was made from, without decoding it again', async () => {
    const made = CID.createV0(await sha256.digest(new TextEncoder().encode('cid-text test')));
    const text = cidText(made);
    expect(text).toBe(made.toString());
    expect(parsedCid(text)).toBe(made);
  });

  it('decodes a text it never saw once, and refuses one that names no CID', () => {
    const text = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
    const first = parsedCid(text);
    expect(first.toString()).toBe(text);
    expect(parsedCid(text)).toBe(first);
    expect(() => parsedCid('not-a-cid')).toThrow();
  });
});
