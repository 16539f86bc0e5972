import { varint } from 'multiformats';
import { describe, expect, it } from 'vitest';
import { varintLength, writeVarint } from '../../../src/drive/store/varint.js';

const VALUES = [
  0,
  1,
  127,
  128,
  255,
  300,
  16_383,
  16_384,
  2 ** 21,
  2 ** 31 - 1,
  2 ** 32,
  2 ** 49 + 5,
  2 ** 53 - 1,
];

describe('varints', () => {
  it('are the bytes and lengths of the multiformats encoder, up to 2^53', () => {
    for (const value of VALUES) {
      const expected = varint.encodeTo(value, new Uint8Array(varint.encodingLength(value)));
      const written = new Uint8Array(12).fill(0xee);
      expect(writeVarint(written, 2, value)).toBe(2 + expected.length);
      expect(written.subarray(2, 2 + expected.length)).toEqual(expected);
      expect(written[2 + expected.length]).toBe(0xee);
      expect(varintLength(value)).toBe(expected.length);
    }
  });

  it('are the bytes protobuf writes: seven bits at a time, low first, the high bit set on all but the last', () => {
    const bytesOf = (value: number) => {
      const into = new Uint8Array(varintLength(value));
      writeVarint(into, 0, value);
      return [...into];
    };
    expect(bytesOf(0)).toEqual([0x00]);
    expect(bytesOf(1)).toEqual([0x01]);
    expect(bytesOf(127)).toEqual([0x7f]);
    expect(bytesOf(128)).toEqual([0x80, 0x01]);
    expect(bytesOf(300)).toEqual([0xac, 0x02]);
    expect(bytesOf(262_144)).toEqual([0x80, 0x80, 0x10]);
    expect(bytesOf(2 ** 32)).toEqual([0x80, 0x80, 0x80, 0x80, 0x10]);
  });
});
