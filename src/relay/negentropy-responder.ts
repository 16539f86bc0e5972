import { nip77 } from 'nostr-tools';

/** nostr-tools' internal byte buffer, which its decoders read from and its encoders return. */
type LibraryBuffer = Parameters<nip77.Negentropy['decodeBound']>[0];

const VERSION = 0x61;
const ID_SIZE = 32;
const FINGERPRINT_SIZE = 16;
const [SKIP, FINGERPRINT, ID_LIST] = [0, 1, 2];

/** Bytes read front to back, in the shape the library's decoders read (`length`, `shift`, `shiftN`). */
class Reader {
  constructor(private bytes: Uint8Array) {}
  get length(): number {
    return this.bytes.length;
  }
  shift(): number {
    if (this.bytes.length === 0) throw new Error('parse ends prematurely');
    const first = this.bytes[0]!;
    this.bytes = this.bytes.subarray(1);
    return first;
  }
  shiftN(n: number): Uint8Array {
    if (this.bytes.length < n) throw new Error('parse ends prematurely');
    const head = this.bytes.subarray(0, n);
    this.bytes = this.bytes.subarray(n);
    return head;
  }
}

/** Bytes appended, in the shape the library's `splitRange` writes to (`extend`, `length`). */
class Writer {
  private readonly parts: Uint8Array[] = [];
  length = 0;
  extend(part: Uint8Array | { unwrap(): Uint8Array }): void {
    const bytes = part instanceof Uint8Array ? part : part.unwrap();
    this.parts.push(bytes);
    this.length += bytes.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function varint(n: number): Uint8Array {
  const digits = [n & 0x7f];
  for (let rest = Math.floor(n / 128); rest > 0; rest = Math.floor(rest / 128))
    digits.unshift(0x80 | (rest & 0x7f));
  return Uint8Array.from(digits);
}

function readVarint(reader: Reader): number {
  let value = 0;
  for (;;) {
    const byte = reader.shift();
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
}

/**
 * nostr-tools' `Negentropy` as the responding side (the relay). Its `reconcile` is written for the initiator:
 * given the client's list of ids for a range it reports have/need locally and answers nothing, so a client
 * holding fewer than 32 records in a range would never learn the relay's. This `reconcile` is the reference
 * implementation's responder (the NIP-77 appendix): the same ranges and fingerprints, through the library's
 * bound encoding, range splitting and storage, and for an id list the relay's own ids of that range. It always
 * answers: the version byte alone ends the client's side.
 */
export class ResponderNegentropy extends nip77.Negentropy {
  override reconcile(message: string): string {
    const query = new Reader(Buffer.from(message, 'hex'));
    this.lastTimestampIn = this.lastTimestampOut = 0;
    const output = new Writer();
    output.extend(Uint8Array.of(VERSION));
    if (query.shift() !== VERSION) return output.bytes().toString('hex');
    const size = this.storage.size();
    let prevBound = this._bound(0);
    let prevIndex = 0;
    let skip = false;
    while (query.length > 0) {
      let o = new Writer();
      const doSkip = () => {
        if (!skip) return;
        skip = false;
        o.extend(this.encodeBound(prevBound));
        o.extend(varint(SKIP));
      };
      const bound = this.decodeBound(query as unknown as LibraryBuffer);
      const mode = readVarint(query);
      const lower = prevIndex;
      let upper = this.storage.findLowerBound(prevIndex, size, bound);
      if (mode === SKIP) {
        skip = true;
      } else if (mode === FINGERPRINT) {
        const theirs = query.shiftN(FINGERPRINT_SIZE);
        if (Buffer.compare(theirs, this.storage.fingerprint(lower, upper)) === 0) skip = true;
        else {
          doSkip();
          this.splitRange(lower, upper, bound, o as unknown as LibraryBuffer);
        }
      } else if (mode === ID_LIST) {
        query.shiftN(readVarint(query) * ID_SIZE);
        doSkip();
        const ids = new Writer();
        let count = 0;
        let end = bound;
        this.storage.iterate(lower, upper, (item, index) => {
          if (this.exceededFrameSizeLimit(output.length + ids.length)) {
            [end, upper] = [item, index];
            return false;
          }
          ids.extend(item.id);
          count++;
          return true;
        });
        o.extend(this.encodeBound(end));
        o.extend(varint(ID_LIST));
        o.extend(varint(count));
        o.extend(ids.bytes());
        output.extend(o.bytes());
        o = new Writer();
      } else {
        throw new Error('unexpected mode');
      }
      if (this.exceededFrameSizeLimit(output.length + o.length)) {
        // Past the frame size: one fingerprint for everything left, which the client splits in its turn.
        const rest = this.storage.fingerprint(upper, size);
        output.extend(this.encodeBound(this._bound(Number.MAX_VALUE)));
        output.extend(varint(FINGERPRINT));
        output.extend(rest);
        break;
      }
      output.extend(o.bytes());
      prevIndex = upper;
      prevBound = bound;
    }
    return output.bytes().toString('hex');
  }
}
