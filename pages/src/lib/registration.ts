import type { Registered } from '../../../src/identity/registration-schema.js';
import { fetchJson } from './http.js';

/** The answer of `POST /g1nostr`, typed by the route's own response schema. */
export type NewIdentity = Registered;

export interface RegistrationInput {
  email: string;
  lang: string;
  lat?: number | null;
  lon?: number | null;
  salt?: string;
  pepper?: string;
}

/** Creates the identity on this station; an ApiError carries the station's sentence (409: e-mail taken). */
export function register(input: RegistrationInput): Promise<NewIdentity> {
  const body: Record<string, string | number> = { email: input.email.trim(), lang: input.lang };
  if (typeof input.lat === 'number' && typeof input.lon === 'number') {
    body.lat = input.lat;
    body.lon = input.lon;
  }
  if (input.salt && input.pepper) {
    body.salt = input.salt;
    body.pepper = input.pepper;
  }
  return fetchJson<NewIdentity>('/g1nostr', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
