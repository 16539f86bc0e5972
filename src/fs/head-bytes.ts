/* What a reception judges a file by while it streams in: its first bytes and its size (staging.ts). */

/**
 * A size rule checked while a file streams in: once the file is larger than `maxBytes`, `refuse` names the
 * error to abort with, or null when the rule does not concern this file (judged on its first bytes).
 */
export interface SizeLimit {
  maxBytes: number;
  refuse(head: Buffer): Error | null;
}

/** The error of the first limit that `size` bytes exceed and that applies to a file starting with `head`. */
export function sizeRefusal(limits: readonly SizeLimit[], size: number, head: Buffer): Error | null {
  for (const limit of limits) {
    const error = size > limit.maxBytes ? limit.refuse(head) : null;
    if (error) return error;
  }
  return null;
}

/**
 * A file's first `capacity` bytes, kept as the chunks they came in (a stream's chunks are its consumer's
 * once read: reception already holds them until written) and joined once, when asked: a file of one chunk
 * costs no copy, a longer one a single copy instead of one per chunk joined again at the end.
 */
export class HeadBytes {
  private readonly parts: Uint8Array[] = [];
  private length = 0;
  private joined: Buffer | null = null;

  constructor(private readonly capacity: number) {}

  get complete(): boolean {
    return this.length >= this.capacity;
  }

  add(chunk: Uint8Array): void {
    const room = this.capacity - this.length;
    if (room <= 0 || chunk.byteLength === 0) return;
    const part = chunk.subarray(0, room);
    this.parts.push(part);
    this.length += part.byteLength;
    this.joined = null;
  }

  bytes(): Buffer {
    if (!this.joined) {
      const only = this.parts.length === 1 ? this.parts[0]! : null;
      this.joined = only
        ? Buffer.from(only.buffer, only.byteOffset, only.byteLength)
        : Buffer.concat(this.parts, this.length);
      this.parts.splice(0, this.parts.length, this.joined);
    }
    return this.joined;
  }
}
