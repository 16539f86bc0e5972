import { finalizeEvent, verifyEvent } from 'nostr-tools';
import { describe, expect, it } from 'vitest';
import { newKey } from '../../test/helpers/nostr.js';
import { fileMetadataEvent, fileMetadataTags, fileMetadataValue } from './nip94.js';

const sha256 = 'b1674191a88ec5cdd733e4240a81803105dc412d6c6708d53ab94fc248f4f553';

describe('NIP-94 file metadata', () => {
  it('names url, type, hashes and size, and the optional facts only when known', () => {
    const bare = fileMetadataTags({
      url: `https://s.example/${sha256}.pdf`,
      type: 'application/pdf',
      sha256,
      size: 3,
    });
    expect(bare).toEqual([
      ['url', `https://s.example/${sha256}.pdf`],
      ['m', 'application/pdf'],
      ['x', sha256],
      ['ox', sha256],
      ['size', '3'],
    ]);
    const rich = fileMetadataTags({
      url: 'u',
      type: 'image/png',
      sha256,
      size: 10,
      dim: '800x600',
      cid: 'QmX',
      fallback: 'http://gw/ipfs/QmW/a.png',
      alt: 'a cat',
      blurhash: null,
    });
    expect(rich.map((tag) => tag[0])).toEqual([
      'url',
      'm',
      'x',
      'ox',
      'size',
      'dim',
      'alt',
      'fallback',
      'cid',
    ]);
  });

  it('is a kind-1063 event any key can sign, with the caption as content', () => {
    const key = newKey();
    const template = fileMetadataEvent(
      { url: 'u', type: 'text/plain', sha256, size: 1 },
      1_700_000_000,
      'hi',
    );
    const event = finalizeEvent(template, key.sk);
    expect(verifyEvent(event)).toBe(true);
    expect(event).toMatchObject({ kind: 1063, content: 'hi', pubkey: key.hex });
    expect(fileMetadataValue(event, 'x')).toBe(sha256);
  });
});
