import WebSocket from 'ws';
import { waitFor } from '../helpers/relay.js';

/** A bare WebSocket client that records every frame, for checking a relay's exact answers. */
export class RawClient {
  readonly frames: unknown[][] = [];
  closeCode: number | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as unknown[]));
    socket.on('close', (code) => (this.closeCode = code));
  }

  static async connect(url: string): Promise<RawClient> {
    const socket = new WebSocket(url);
    const client = new RawClient(socket);
    await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
    return client;
  }

  send(...message: unknown[]): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first frame (from `from` on) that satisfies `match`, waiting for it. */
  async next(match: (frame: unknown[]) => boolean, from = 0): Promise<unknown[]> {
    let found: unknown[] | undefined;
    await waitFor(() => (found = this.frames.slice(from).find(match)) !== undefined);
    return found!;
  }

  ok(id: string): Promise<unknown[]> {
    return this.next((frame) => frame[0] === 'OK' && frame[1] === id);
  }

  closed(subscription: string): Promise<unknown[]> {
    return this.next((frame) => frame[0] === 'CLOSED' && frame[1] === subscription);
  }

  /** Events of a subscription up to its EOSE. */
  async stored(subscription: string): Promise<{ id: string; kind: number; content: string }[]> {
    await this.next((frame) => frame[0] === 'EOSE' && frame[1] === subscription);
    return this.frames
      .filter((frame) => frame[0] === 'EVENT' && frame[1] === subscription)
      .map((frame) => frame[2] as { id: string; kind: number; content: string });
  }

  get challenge(): string {
    const auth = this.frames.find((frame) => frame[0] === 'AUTH');
    return auth![1] as string;
  }

  close(): void {
    this.socket.terminate();
  }
}
