import type { NostrEvent } from 'nostr-tools';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { eachEvent, type StreamErrors } from '../../streams/each-event.js';
import { newKey, signEvent } from '../helpers/nostr.js';

describe('eachEvent', () => {
  it('counts a handler that throws and keeps the stream alive for the next events', async () => {
    const source = new Subject<NostrEvent>();
    const errors: StreamErrors = {};
    const handled: string[] = [];
    const key = newKey();
    const events = ['ok-1', 'boom', 'ok-2'].map((content) => signEvent(key, { kind: 1, content }));
    let completed = false;
    source
      .pipe(
        eachEvent(
          async (event) => {
            if (event.content === 'boom') throw new Error('disk full');
            return event.content;
          },
          { name: 'test', errors },
        ),
      )
      .subscribe({ next: (value) => handled.push(value), complete: () => (completed = true) });
    for (const event of events) source.next(event);
    source.complete();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handled).toEqual(['ok-1', 'ok-2']);
    expect(errors).toEqual({ test: 1 });
    expect(completed).toBe(true);
  });
});
