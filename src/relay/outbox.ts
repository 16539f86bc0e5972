import WebSocket from 'ws';

/** Bytes queued for sending over all of the relay's connections. */
export class SendQueues {
  queued = 0;

  constructor(
    /** Past this total, strangers holding more than `fairShare` queued are dropped. */
    readonly maxTotal: number,
    readonly fairShare: number,
  ) {}
}

/**
 * What one connection has queued for sending: frames handed to the socket whose write has not completed.
 * A stranger past its own bound, or holding more than its fair share while all connections together are past
 * theirs, is dropped: memory queued for clients that do not read stays bounded. The station's own connection
 * is never dropped; what sends much to it (a back-fill) waits for `drained` instead.
 */
export class Outbox {
  private queued = 0;
  private closed = false;
  /** When a write last completed, or the queue last went from empty to not (Date.now()). */
  private progressAt = Date.now();
  private readonly waiting: { below: number; resolve: () => void }[] = [];

  constructor(
    private readonly socket: WebSocket,
    private readonly all: SendQueues,
    /** Bytes this connection may have queued; null: no bound (the station's own connection). */
    private readonly bound: () => number | null,
    private readonly onOverflow: (queued: number) => void,
  ) {
    socket.once('close', () => this.close());
  }

  get bytes(): number {
    return this.queued;
  }

  /** Queues one frame; false when the connection is gone or was dropped for it. */
  send(frame: string): boolean {
    if (this.closed || this.socket.readyState !== WebSocket.OPEN) return false;
    const size = Buffer.byteLength(frame);
    const bound = this.bound();
    const overAll = this.all.queued + size > this.all.maxTotal && this.queued > this.all.fairShare;
    if (bound !== null && (this.queued + size > bound || overAll)) {
      this.drop();
      return false;
    }
    if (this.queued === 0) this.progressAt = Date.now();
    this.queued += size;
    this.all.queued += size;
    this.socket.send(frame, () => this.written(size));
    return true;
  }

  /** Resolves once at most `below` bytes are queued (at once if so), or the connection is gone. */
  drained(below: number): Promise<void> {
    if (this.closed || this.queued <= below) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ below, resolve }));
  }

  /**
   * False from the moment the socket leaves OPEN, not only once ws emits 'close' (which waits for the socket's
   * teardown): an answer being read for a client that left stops at its next page.
   */
  get open(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN;
  }

  /** Milliseconds since the client last took anything while something was queued for it (0: nothing queued). */
  stalledFor(now: number): number {
    return this.queued === 0 ? 0 : now - this.progressAt;
  }

  /** Drops the connection (a stranger that stopped reading). */
  drop(): void {
    this.onOverflow(this.queued);
    this.socket.terminate();
    this.close();
  }

  private written(size: number): void {
    if (this.closed) return;
    this.progressAt = Date.now();
    this.queued -= size;
    this.all.queued -= size;
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const waiter = this.waiting[i]!;
      if (this.queued > waiter.below) continue;
      this.waiting.splice(i, 1);
      waiter.resolve();
    }
  }

  /**
   * The socket is gone (the client left, or it was dropped): nothing more is queued or counted for it, and the
   * answers still being read for it stop at their next page instead of reading on to their end for nobody.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.all.queued -= this.queued;
    this.queued = 0;
    for (const waiter of this.waiting.splice(0)) waiter.resolve();
  }
}
