import type { Language } from './language.js';
import { keysLabels, type KeysLabels } from './keys.js';
import { positionLabels, type PositionLabels } from './position.js';

/** Texts the registration page's module shows at run time. */
export interface G1ScriptLabels {
  registering: string;
  failed: string;
  badEmail: string;
  bothOrNeither: string;
  badCredential: string;
  cellTitle: string;
  noCell: string;
  keys: KeysLabels;
  position: PositionLabels;
}

export interface G1Labels {
  title: string;
  intro: string;
  emailLabel: string;
  credentialsTitle: string;
  credentialsHint: string;
  salt: string;
  pepper: string;
  register: string;
  position: PositionLabels;
  js: G1ScriptLabels;
}

const fr: G1Labels = {
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
  position: positionLabels('fr'),
  js: {
    registering: 'Création de votre identité…',
    failed: 'Échec',
    badEmail: 'Tapez une adresse e-mail valide (nom@domaine.fr).',
    bothOrNeither: 'Donnez le sel et le poivre, ou aucun des deux.',
    badCredential: 'Le sel et le poivre font 1 à 128 caractères ASCII visibles, sans espace.',
    cellTitle: 'Votre case UMAP',
    noCell: 'Aucune position donnée : vous pourrez en ajouter une plus tard.',
    keys: keysLabels('fr'),
    position: positionLabels('fr'),
  },
};

const en: G1Labels = {
  title: 'Registration',
  intro:
    'Create your UPlanet identity: a NOSTR key and a Ğ1 wallet, tied to your UMAP cell when you give a position.',
  emailLabel: 'Your e-mail',
  credentialsTitle: 'Ğ1 credentials (optional)',
  credentialsHint:
    'Give a salt AND a pepper to derive your keys from them (the same as the station’s keygen tool); leave both empty for random ones. 1 to 128 visible ASCII characters, no spaces.',
  salt: 'Salt (secret identifier)',
  pepper: 'Pepper (password)',
  register: 'Create my identity',
  position: positionLabels('en'),
  js: {
    registering: 'Creating your identity…',
    failed: 'Failed',
    badEmail: 'Type a valid e-mail address (name@domain.org).',
    bothOrNeither: 'Give both the salt and the pepper, or neither.',
    badCredential: 'The salt and the pepper are 1 to 128 visible ASCII characters, no spaces.',
    cellTitle: 'Your UMAP cell',
    noCell: 'No position given: you can add one later.',
    keys: keysLabels('en'),
    position: positionLabels('en'),
  },
};

export function g1Labels(lang: Language): G1Labels {
  return lang === 'fr' ? fr : en;
}
