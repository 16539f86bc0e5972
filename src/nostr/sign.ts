import { finalizeEvent as finalizeWithJs, type EventTemplate, type VerifiedEvent } from 'nostr-tools/pure';
import { schnorrThread } from './schnorr-thread.js';
import { rememberSigned } from './verify.js';
import { nostrWasm } from './wasm.js';

/**
 * Signs an event with a secret key the station holds (a user's, for their NIP-94 announcements, or its
 * own). nostr-wasm signs in about a tenth of the time of nostr-tools' pure-JS signer (which also verifies
 * every signature it makes). The event is remembered as verified (verify.ts): the embedded relay it is
 * published to does not check this process's own signature again.
 */
export function signEvent(template: EventTemplate, secretKey: Uint8Array): VerifiedEvent {
  const event = nostrWasm
    ? signWithWasm(nostrWasm, template, secretKey)
    : finalizeWithJs(template, secretKey);
  rememberSigned(event);
  return event;
}

/**
 * `signEvent` on the station's signature thread (schnorr-thread.ts), for work a request leaves behind (a
 * NIP-94 announcement): the event loop goes on serving meanwhile. Signs here when the thread is not there.
 */
export async function signEventOffThread(
  template: EventTemplate,
  secretKey: Uint8Array,
): Promise<VerifiedEvent> {
  const event = nostrWasm ? await schnorrThread().sign(template, secretKey) : null;
  if (!event) return signEvent(template, secretKey);
  rememberSigned(event);
  return event;
}

function signWithWasm(
  wasm: NonNullable<typeof nostrWasm>,
  template: EventTemplate,
  secretKey: Uint8Array,
): VerifiedEvent {
  const event = {
    kind: template.kind,
    created_at: template.created_at,
    tags: template.tags,
    content: template.content,
  } as VerifiedEvent;
  wasm.finalizeEvent(event, secretKey);
  return event;
}
