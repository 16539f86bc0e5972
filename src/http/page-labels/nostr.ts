import { keyLabels, keyScriptLabels, type KeyLabels, type KeyScriptLabels } from './key.js';
import type { Language } from './language.js';
import { positionLabels, type PositionLabels } from './position.js';

/** Texts the geo-message page's module shows at run time. */
export interface NostrScriptLabels extends KeyScriptLabels {
  needKey: string;
  needPosition: string;
  emptyMessage: string;
  publishing: string;
  published: string;
  notIndexed: string;
  failed: string;
  relayUnreachable: string;
  relayRejected: string;
  badRelay: string;
  loading: string;
  empty: string;
  around: string;
  position: PositionLabels;
}

export interface NostrLabels extends KeyLabels {
  title: string;
  intro: string;
  composeTitle: string;
  messageLabel: string;
  publish: string;
  advanced: string;
  relayLabel: string;
  listTitle: string;
  refresh: string;
  position: PositionLabels;
  js: NostrScriptLabels;
}

const fr: NostrLabels = {
  title: 'Géo-messages',
  intro: 'Publiez un message NOSTR attaché à votre case UMAP et lisez ceux des cases voisines.',
  ...keyLabels('fr'),
  composeTitle: '3. Votre message',
  messageLabel: 'Message (2000 caractères au plus)',
  publish: 'Signer et publier',
  advanced: 'Réglages avancés',
  relayLabel: 'Relais NOSTR',
  listTitle: 'Messages autour de vous',
  refresh: 'Actualiser',
  position: { ...positionLabels('fr'), title: '2. Position' },
  js: {
    ...keyScriptLabels('fr'),
    needKey: 'Connectez d’abord votre clé NOSTR.',
    needPosition: 'Donnez d’abord une position.',
    emptyMessage: 'Le message est vide.',
    publishing: 'Signature et publication…',
    published: 'Message publié sur le relais.',
    notIndexed: 'Message publié ; la station ne l’a pas encore reçu : actualisez dans un instant.',
    failed: 'Échec',
    relayUnreachable: 'Le relais ne répond pas :',
    relayRejected: 'Le relais a refusé le message :',
    badRelay: 'L’adresse du relais doit commencer par ws:// ou wss://.',
    loading: 'Chargement…',
    empty: 'Aucun message dans ces cases pour l’instant.',
    around: 'Cases autour de',
    position: { ...positionLabels('fr'), title: '2. Position' },
  },
};

const en: NostrLabels = {
  title: 'Geo-messages',
  intro: 'Publish a NOSTR message attached to your UMAP cell and read those of the cells around it.',
  ...keyLabels('en'),
  composeTitle: '3. Your message',
  messageLabel: 'Message (2000 characters at most)',
  publish: 'Sign and publish',
  advanced: 'Advanced settings',
  relayLabel: 'NOSTR relay',
  listTitle: 'Messages around you',
  refresh: 'Refresh',
  position: { ...positionLabels('en'), title: '2. Position' },
  js: {
    ...keyScriptLabels('en'),
    needKey: 'Connect your NOSTR key first.',
    needPosition: 'Give a position first.',
    emptyMessage: 'The message is empty.',
    publishing: 'Signing and publishing…',
    published: 'Message published on the relay.',
    notIndexed: 'Message published; the station has not received it yet: refresh in a moment.',
    failed: 'Failed',
    relayUnreachable: 'The relay does not answer:',
    relayRejected: 'The relay refused the message:',
    badRelay: 'The relay address must start with ws:// or wss://.',
    loading: 'Loading…',
    empty: 'No message in these cells yet.',
    around: 'Cells around',
    position: { ...positionLabels('en'), title: '2. Position' },
  },
};

export function nostrLabels(lang: Language): NostrLabels {
  return lang === 'fr' ? fr : en;
}
