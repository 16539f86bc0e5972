import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Event } from '@nostr-relay/common';
import type { NostrEvent } from 'nostr-tools';
import { verifySignature } from '../auth/verify.js';
import { isEventShaped } from '../auth/event-shape.js';
import { writeFileAtomic } from '../fs/atomic.js';

/**
 * Append-only JSON-lines journal of the embedded relay, so stored events survive restarts. Replayed and
 * compacted (rewritten with only the events still kept) at start-up; appended to while running.
 */
export class EventLog {
  private out: WriteStream | null = null;

  constructor(private readonly path: string) {}

  /** Calls `apply` for every valid event of the log, in order. */
  async replay(apply: (event: Event) => void): Promise<number> {
    await mkdir(dirname(this.path), { recursive: true });
    let count = 0;
    const input = createReadStream(this.path, { encoding: 'utf8' });
    const lines = createInterface({ input, crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        let event: unknown;
        try {
          event = JSON.parse(line);
        } catch {
          continue; // a torn last line after a crash
        }
        if (isEventShaped(event) && verifySignature(event as NostrEvent)) {
          apply(event as Event);
          count++;
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return count;
  }

  async compact(events: Iterable<Event>): Promise<void> {
    let text = '';
    for (const event of events) text += `${JSON.stringify(event)}\n`;
    await writeFileAtomic(this.path, text, { mode: 0o600 });
  }

  append(event: Event): void {
    this.out ??= createWriteStream(this.path, { flags: 'a', mode: 0o600 });
    this.out.write(`${JSON.stringify(event)}\n`);
  }

  async close(): Promise<void> {
    const out = this.out;
    this.out = null;
    if (out) await new Promise<void>((resolve) => out.end(resolve));
  }
}
