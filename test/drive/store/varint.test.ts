import { varint } from 'multiformats';
import { describe, expect, it } from 'vitest';
import {
  bytesFieldLength,
  varintLength,
  writeBytesField,
  writeVarint,
} from '../../../src/drive/store/varint.js';

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

  it('frame a length-delimited field: tag, length, body', () => {
    const body = new Uint8Array(200).fill(7);
    const field = new Uint8Array(bytesFieldLength(body.length));
    expect(writeBytesField(field, 0, 0x12, body)).toBe(field.length);
    expect([...field.subarray(0, 3)]).toEqual([0x12, 0xc8, 0x01]);
    expect(field.subarray(3)).toEqual(body);
  });
});
