import type { Language } from './language.js';

/** Texts of the keys card that the scan and registration pages show once after creating an identity. */
export interface KeysLabels {
  title: string;
  warning: string;
  secretTag: string;
  fields: {
    email: string;
    npub: string;
    hex: string;
    g1pub: string;
    g1pubV1: string;
    nsec: string;
    salt: string;
    pepper: string;
  };
  qrLabel: string;
  download: string;
  hide: string;
  hidden: string;
  balance: string;
  nextSteps: string;
  cookiePage: string;
  geoPage: string;
}

const fr: KeysLabels = {
  title: 'Vos clés',
  warning:
    'Enregistrez ces clés maintenant : elles ne seront plus jamais affichées. La clé secrète (nsec) donne le contrôle total de votre identité ; le sel et le poivre permettent de recréer vos clés et votre portefeuille Ğ1. Ne les partagez avec personne.',
  secretTag: 'secret',
  fields: {
    email: 'E-mail',
    npub: 'Clé publique NOSTR (npub)',
    hex: 'Clé publique (hex)',
    g1pub: 'Portefeuille Ğ1 (g1…)',
    g1pubV1: 'Portefeuille Ğ1 (clé v1)',
    nsec: 'Clé secrète NOSTR (nsec)',
    salt: 'Sel',
    pepper: 'Poivre',
  },
  qrLabel: 'QR code de votre clé publique npub',
  download: 'Télécharger mes clés (fichier texte)',
  hide: 'C’est enregistré : masquer les clés',
  hidden: 'Clés masquées. Elles ne sont plus affichées sur cette station.',
  balance: 'Voir mon solde (0 Ẑen au départ)',
  nextSteps: 'Ensuite :',
  cookiePage: 'envoyer mes cookies',
  geoPage: 'publier un géo-message',
};

const en: KeysLabels = {
  title: 'Your keys',
  warning:
    'Save these keys now: they will never be shown again. The secret key (nsec) gives full control of your identity; the salt and pepper recreate your keys and your Ğ1 wallet. Share them with no one.',
  secretTag: 'secret',
  fields: {
    email: 'E-mail',
    npub: 'NOSTR public key (npub)',
    hex: 'Public key (hex)',
    g1pub: 'Ğ1 wallet (g1…)',
    g1pubV1: 'Ğ1 wallet (v1 key)',
    nsec: 'NOSTR secret key (nsec)',
    salt: 'Salt',
    pepper: 'Pepper',
  },
  qrLabel: 'QR code of your npub public key',
  download: 'Download my keys (text file)',
  hide: 'Saved: hide the keys',
  hidden: 'Keys hidden. This station will not show them again.',
  balance: 'See my balance (0 Ẑen to start with)',
  nextSteps: 'Next:',
  cookiePage: 'upload my cookies',
  geoPage: 'publish a geo-message',
};

export function keysLabels(lang: Language): KeysLabels {
  return lang === 'fr' ? fr : en;
}
