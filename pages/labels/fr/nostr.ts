import { key } from './key.js';
import { position } from './position.js';

export const nostr = {
  title: 'Géo-messages',
  intro: 'Publiez un message NOSTR attaché à votre case UMAP et lisez ceux des cases voisines.',
  ...key.page,
  composeTitle: '3. Votre message',
  messageLabel: 'Message (2000 caractères au plus)',
  publish: 'Signer et publier',
  advanced: 'Réglages avancés',
  relayLabel: 'Relais NOSTR',
  listTitle: 'Messages autour de vous',
  refresh: 'Actualiser',
  position: { ...position, title: '2. Position' },
  js: {
    ...key.js,
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
    position: { ...position, title: '2. Position' },
  },
};
