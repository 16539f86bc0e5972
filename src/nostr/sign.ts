import { finalizeEvent as finalizeWithJs, type EventTemplate, type VerifiedEvent } from 'nostr-tools/pure';
import { nostrWasm } from './wasm.js';

/**
 * Signs an event with a secret key the station holds (a user's, for their NIP-94 announcements, or its
 * own). nostr-wasm signs in about a tenth of the time of nostr-tools' pure-JS signer, which also verifies
 * every signature it makes; the relay the event goes to checks it anyway (see verify.ts).
 */
export function signEvent(template: EventTemplate, secretKey: Uint8Array): VerifiedEvent {
  if (!nostrWasm) return finalizeWithJs(template, secretKey);
  const event = {
    kind: template.kind,
    created_at: template.created_at,
    tags: template.tags,
    content: template.content,
  } as VerifiedEvent;
  nostrWasm.finalizeEvent(event, secretKey);
  return event;
}
