import WebSocket from 'ws';
import { isEventShaped } from '../src/nostr/event.js';

export interface SocketHooks {
  /**
   * How long a close handshake may take before the socket is destroyed. ws waits 30 s by default, and
   * nostr-tools closes (not terminates) a socket whose ping went unanswered: a silent peer would hold it.
   */
  closeTimeoutMs: number;
  created(socket: WebSocket): void;
  /** A frame kept from nostr-tools: binary, not JSON, not an array, or an EVENT that is not event-shaped. */
  invalid(): void;
  /** A frame nostr-tools has just handled (e.g. an AUTH challenge, which it has stored by then). */
  handled(frame: unknown[]): void;
}

function parseFrame(data: unknown, isBinary: boolean): unknown[] | null {
  if (isBinary) return null;
  let frame: unknown;
  try {
    frame = JSON.parse(String(data));
  } catch {
    return null;
  }
  if (!Array.isArray(frame) || typeof frame[0] !== 'string') return null;
  if (frame[0] === 'EVENT' && (typeof frame[1] !== 'string' || !isEventShaped(frame[2]))) return null;
  return frame;
}

/**
 * The `ws` WebSocket that nostr-tools' AbstractRelay constructs (Node 20 has no global WebSocket). Malformed
 * frames are counted and dropped here: nostr-tools would only print them with console.warn, and a missing
 * event would make it throw.
 */
export function guardedWebSocket(hooks: SocketHooks): new (address: string) => WebSocket {
  return class GuardedWebSocket extends WebSocket {
    constructor(address: string) {
      // `closeTimeout` is a ws 8.19+ client option that @types/ws does not list yet.
      super(address, { closeTimeout: hooks.closeTimeoutMs } as WebSocket.ClientOptions);
      // nostr-tools detaches its handlers when it closes the socket: an 'error' emitted afterwards (a handshake
      // aborted by close()) would otherwise be thrown. The 'close' that follows every error is what counts.
      this.on('error', () => undefined);
      hooks.created(this);
    }

    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event !== 'message') return super.emit(event, ...args);
      const frame = parseFrame(args[0], args[1] === true);
      if (!frame) {
        hooks.invalid();
        return false;
      }
      const handled = super.emit(event, ...args);
      hooks.handled(frame);
      return handled;
    }
  };
}
