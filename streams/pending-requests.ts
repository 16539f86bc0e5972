import type { NostrEvent } from 'nostr-tools';
import { filter, firstValueFrom, timeout, type BehaviorSubject } from 'rxjs';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  events?: NostrEvent[];
}

/** Book-keeping of the relay client's request/answer pairs (OK for EVENT, EOSE for REQ), with time limits. */
export class PendingRequests {
  private readonly byKey = new Map<string, Pending>();

  open<T>(key: string, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.byKey.delete(key);
        reject(new Error('relay did not answer in time'));
      }, timeoutMs);
      this.byKey.set(key, { resolve: resolve as (value: unknown) => void, reject, timer });
    });
  }

  /** Like `open`, but gathers events and resolves with what it has at EOSE or at the timeout. */
  collect(key: string, timeoutMs: number): Promise<NostrEvent[]> {
    return new Promise<NostrEvent[]>((resolve, reject) => {
      const events: NostrEvent[] = [];
      const timer = setTimeout(() => this.finish(key), timeoutMs);
      this.byKey.set(key, { resolve: resolve as (value: unknown) => void, reject, timer, events });
    });
  }

  push(key: string, event: NostrEvent): void {
    this.byKey.get(key)?.events?.push(event);
  }

  finish(key: string): void {
    const pending = this.byKey.get(key);
    if (pending) this.resolve(key, pending.events ?? []);
  }

  resolve(key: string, value: unknown): void {
    const pending = this.byKey.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.byKey.delete(key);
    pending.resolve(value);
  }

  rejectAll(error: Error): void {
    for (const [key, pending] of this.byKey) {
      clearTimeout(pending.timer);
      this.byKey.delete(key);
      pending.reject(error);
    }
  }

  async waitFor<T>(subject: BehaviorSubject<T>, wanted: T, timeoutMs: number): Promise<void> {
    try {
      await firstValueFrom(
        subject.pipe(
          filter((value) => value === wanted),
          timeout(timeoutMs),
        ),
      );
    } catch {
      throw new Error('relay is not connected');
    }
  }
}
