import type { Localized, UnauthenticatedCode } from '../errors.js';
import type { ChallengeVerdict } from './challenges.js';

/**
 * What the authenticator answers when it refuses a request, in both languages (docs/api-contract.md §5,
 * §6); kept apart so that `authenticator.ts` reads as the order of the checks.
 */

/** A protocol check's reason, prefixed with the protocol it comes from ("NIP-98: …"). */
export const protocolReason = (protocol: 'NIP-98' | 'NIP-42', reason: Localized): Localized => ({
  en: `${protocol}: ${reason.en}.`,
  fr: `${protocol} : ${reason.fr}.`,
});

export const malformedHeader = (reason: Localized): Localized => ({
  en: `Authorization header: ${reason.en}.`,
  fr: `En-tête Authorization : ${reason.fr}.`,
});

export const CHALLENGE_REFUSALS: Record<Exclude<ChallengeVerdict, 'ok'>, [UnauthenticatedCode, Localized]> = {
  unknown: [
    'AUTH_CHALLENGE_INVALID',
    {
      en: 'NIP-42: the challenge is unknown, expired or already used (a challenge seen on the relay is used up); get a new one from /api/nip42/challenge.',
      fr: 'NIP-42 : le défi est inconnu, expiré ou déjà utilisé (un défi vu sur le relais est consommé) ; demandez-en un nouveau à /api/nip42/challenge.',
    },
  ],
  'other-key': [
    'AUTH_CHALLENGE_OTHER_KEY',
    {
      en: 'NIP-42: the challenge was issued to another key.',
      fr: 'NIP-42 : le défi a été délivré à une autre clé.',
    },
  ],
  'other-address': [
    'AUTH_CHALLENGE_OTHER_ADDRESS',
    {
      en: 'NIP-42: the challenge was issued to another client address; ask for one from this address.',
      fr: 'NIP-42 : le défi a été délivré à une autre adresse cliente ; demandez-en un depuis cette adresse.',
    },
  ],
};

export const WRONG_KIND: Localized = {
  en: 'An Authorization event must be kind 27235 or 22242.',
  fr: 'Un événement Authorization doit être de kind 27235 ou 22242.',
};

export const otherOrigin = (origins: string): Localized => ({
  en: `NIP-98: this request's host is not one of this station's origins (${origins}).`,
  fr: `NIP-98 : l’hôte de cette requête n’est pas une des origines de cette station (${origins}).`,
});

export const PAYLOAD_MISMATCH: Localized = {
  en: 'NIP-98: the payload tag is not the SHA-256 of the body.',
  fr: 'NIP-98 : le tag payload n’est pas le SHA-256 du corps de la requête.',
};

export const NIP98_REPLAYED: Localized = {
  en:
    'NIP-98: this authorization event was already used; sign a new one for every request. Two requests ' +
    'to the same URL with the same method in the same second sign the same event (the same id) unless ' +
    'it differs, for instance by a `payload` tag (the SHA-256 of the body) or a random `nonce` tag.',
  fr:
    'NIP-98 : cet événement d’autorisation a déjà servi ; signez-en un nouveau pour chaque requête. Deux ' +
    'requêtes vers la même URL avec la même méthode dans la même seconde signent le même événement (le même ' +
    'id), sauf s’il diffère, par exemple par un tag `payload` (le SHA-256 du corps) ou un tag `nonce` aléatoire.',
};

export const PROOF_REQUIRED: Localized = {
  en: 'This operation needs an Authorization header: a NIP-98 event or a signed answer to /api/nip42/challenge.',
  fr: 'Cette opération demande un en-tête Authorization : un événement NIP-98 ou une réponse signée à /api/nip42/challenge.',
};

export const AUTH_REQUIRED: Localized = {
  en: 'Send an Authorization: Nostr header, or the npub of a key that answered a /api/nip42/challenge on the relay.',
  fr: 'Envoyez un en-tête Authorization: Nostr, ou la npub d’une clé qui a répondu à un /api/nip42/challenge sur le relais.',
};

export const foreignPage = (origin: string): Localized => ({
  en: `A relay-observed login is not accepted from a page of ${origin}: sign the request (NIP-98), or use the station's own pages.`,
  fr: `Une connexion vue sur le relais n’est pas acceptée depuis une page de ${origin} : signez la requête (NIP-98), ou utilisez les pages de la station.`,
});

export const NO_RELAY_LOGIN: Localized = {
  en: 'No recent kind 22242 answer from this key to a challenge asked from this address was seen on the relay.',
  fr: 'Aucune réponse récente de kind 22242 de cette clé à un défi demandé depuis cette adresse n’a été vue sur le relais.',
};

export const NPUB_MISMATCH: Localized = {
  en: 'The npub of the request is not the authenticated key.',
  fr: 'La npub de la requête n’est pas la clé authentifiée.',
};
