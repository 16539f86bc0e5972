import { Type, type Static } from 'typebox';

/**
 * The answer of `POST /g1nostr` (docs/api-contract.md §7): the route's response schema, and the type the
 * registration page and the pages' bundle read it with.
 */
export const Registered = Type.Object({
  email: Type.String(),
  npub: Type.String(),
  hex: Type.String(),
  g1pub: Type.String({ description: 'Ğ1 wallet, SS58 (g1…)' }),
  g1pub_v1: Type.String({ description: 'Ğ1 wallet, v1 base58 public key' }),
  nsec: Type.String(),
  salt: Type.String(),
  pepper: Type.String(),
  lat: Type.Union([Type.Number(), Type.Null()]),
  lon: Type.Union([Type.Number(), Type.Null()]),
});

export type Registered = Static<typeof Registered>;
