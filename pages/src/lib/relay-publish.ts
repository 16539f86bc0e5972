import { Relay } from 'nostr-tools/relay';
import type { NostrEvent, VerifiedEvent } from 'nostr-tools/pure';
import type { Signer } from './signer.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const CONNECT_TIMEOUT_MS = 8_000;

export class RelayError extends Error {
  constructor(
    readonly reason: 'bad-url' | 'unreachable' | 'rejected',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The relay URL a browser can reach. The station knows its relay by a loopback address (`ws://127.0.0.1:7777`);
 * a phone reaching the station by name must use that name instead, and an HTTPS page needs `wss:`.
 */
export function browserRelayUrl(configured: string, page: Location = window.location): string {
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    return configured;
  }
  if (LOOPBACK.has(url.hostname) && !LOOPBACK.has(page.hostname)) url.hostname = page.hostname;
  if (page.protocol === 'https:' && url.protocol === 'ws:') url.protocol = 'wss:';
  return url.href.replace(/\/$/, '');
}

function checkUrl(url: string): void {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'ws:' || parsed.protocol === 'wss:') return;
  } catch {
    // falls through
  }
  throw new RelayError('bad-url', 'The relay address must start with ws:// or wss://');
}

/**
 * Publishes one signed event and waits for the relay's OK. A relay that asks for NIP-42 authentication
 * (`auth-required`) gets an AUTH signed by the same signer, then the event once more.
 */
export async function publishEvent(url: string, event: NostrEvent, signer: Signer): Promise<void> {
  checkUrl(url);
  let relay: Relay;
  try {
    relay = await Relay.connect(url, { timeout: CONNECT_TIMEOUT_MS, enableReconnect: false });
  } catch {
    throw new RelayError('unreachable', `The relay ${url} cannot be reached.`);
  }
  try {
    try {
      await relay.publish(event);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!message.startsWith('auth-required')) throw error;
      await relay.auth(async (template) => (await signer.sign(template)) as VerifiedEvent);
      await relay.publish(event);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new RelayError('rejected', message);
  } finally {
    relay.close();
  }
}
