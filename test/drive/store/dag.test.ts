import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { encodeDirectory, isDagPb, type DirectoryLink } from '../../../src/drive/store/dag.js';

const DATA = Buffer.from([0x0a, 0x02, 0x08, 0x01]);

/** What @ipld/dag-pb writes for the same directory: the reference. */
function reference(links: readonly DirectoryLink[]): Uint8Array {
  return dagPb.encode(
    dagPb.prepare({
      Data: new UnixFS({ type: 'directory' }).marshal(),
      Links: links.map((l) => ({ Name: l.name, Hash: CID.parse(String(l.cid)), Tsize: l.dagSize })),
    }),
  );
}

async function cidOf(text: string): Promise<string> {
  return CID.createV0(await sha256.digest(new TextEncoder().encode(text))).toString();
}

describe('directory nodes', () => {
  it('are byte for byte what @ipld/dag-pb writes, whatever the names and sizes', async () => {
    // Names whose UTF-16 order differs from their UTF-8 byte order (U+FF5E against an astral emoji).
    const names = [
      'b.jpg',
      'a.jpg',
      'A.jpg',
      'é.txt',
      '～.txt',
      '😀.txt',
      '中文.pdf',
      'a (1).jpg',
      'a (10).jpg',
      'x',
    ];
    const sizes = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 40 + 3, 300, 5];
    const links = await Promise.all(
      names.map(async (name, i) => ({ name, cid: await cidOf(name), dagSize: sizes[i]! })),
    );
    for (const subset of [links, links.slice(0, 1), [], links.slice(3).reverse()]) {
      const encoded = await encodeDirectory(subset);
      const bytes = reference(subset);
      expect(Buffer.from(encoded.bytes).equals(Buffer.from(bytes))).toBe(true);
      expect(encoded.cid).toBe(CID.createV0(await sha256.digest(bytes)).toString());
      expect(encoded.dagSize).toBe(subset.reduce((sum, l) => sum + l.dagSize, bytes.length));
    }
  });

  it('tells a dag-pb node from other bytes by its framing', async () => {
    const node = await encodeDirectory([{ name: 'a', cid: await cidOf('a'), dagSize: 3 }]);
    expect(isDagPb(node.bytes)).toBe(true);
    expect(isDagPb(new Uint8Array(0))).toBe(true); // the empty node
    expect(isDagPb(new TextEncoder().encode('hello world\n'))).toBe(false);
    expect(isDagPb(node.bytes.subarray(0, node.bytes.length - 1))).toBe(false); // cut short
    expect(isDagPb(Buffer.concat([DATA, node.bytes]))).toBe(false); // Data before a link
    expect(isDagPb(Buffer.concat([DATA, DATA]))).toBe(false);
  });
});
