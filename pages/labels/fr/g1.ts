import { keys } from './keys.js';
import { position } from './position.js';

export const g1 = {
  title: 'Inscription',
  intro:
    'Créez votre identité UPlanet : une clé NOSTR et un portefeuille Ğ1, rattachés à votre case UMAP si vous donnez une position.',
  emailLabel: 'Votre e-mail',
  credentialsTitle: 'Identifiants Ğ1 (facultatif)',
  credentialsHint:
    'Donnez un sel ET un poivre pour que vos clés en soient dérivées (les mêmes qu’avec l’outil keygen de la station) ; laissez les deux vides pour des identifiants aléatoires. 1 à 128 caractères ASCII visibles, sans espace.',
  salt: 'Sel (identifiant secret)',
  pepper: 'Poivre (mot de passe)',
  register: 'Créer mon identité',
  position: position,
  js: {
    registering: 'Création de votre identité…',
    failed: 'Échec',
    badEmail: 'Tapez une adresse e-mail valide (nom@domaine.fr).',
    bothOrNeither: 'Donnez le sel et le poivre, ou aucun des deux.',
    badCredential: 'Le sel et le poivre font 1 à 128 caractères ASCII visibles, sans espace.',
    cellTitle: 'Votre case UMAP',
    noCell: 'Aucune position donnée : vous pourrez en ajouter une plus tard.',
    keys: keys,
    position: position,
  },
};
