import type { Language } from './language.js';
import { keysLabels, type KeysLabels } from './keys.js';

/** What each kind of scanned code is called (the keys of `recognise()` in pages/src/lib/recognise.ts). */
export interface ScanKindLabels {
  npub: string;
  nprofile: string;
  nsec: string;
  'nostr-event': string;
  'g1-address': string;
  'g1-v1': string;
  'hex-key': string;
  email: string;
  'station-link': string;
  'ipfs-link': string;
  link: string;
  text: string;
}

/** Texts the scan page's module shows at run time. */
export interface ScanScriptLabels {
  registering: string;
  failed: string;
  badEmail: string;
  cameraOn: string;
  cameraProblems: { unsupported: string; denied: string; 'no-camera': string; failed: string };
  reading: string;
  noCode: string;
  unreadable: string;
  empty: string;
  kinds: ScanKindLabels;
  secretWarning: string;
  publicKeyOf: string;
  wallet: string;
  relays: string;
  links: { balance: string; checkKey: string; profile: string; open: string };
  keys: KeysLabels;
}

export interface ScanLabels {
  title: string;
  intro: string;
  registerTitle: string;
  registerIntro: string;
  emailLabel: string;
  register: string;
  scanTitle: string;
  scanIntro: string;
  cameraStart: string;
  cameraStop: string;
  fileLabel: string;
  clear: string;
  resultsTitle: string;
  js: ScanScriptLabels;
}

const fr: ScanLabels = {
  title: 'Scanner',
  intro:
    'Créez votre identité UPlanet avec votre e-mail, puis scannez les QR codes des cartes d’identité, portefeuilles Ğ1 et liens de station.',
  registerTitle: '1. Créer mon identité',
  registerIntro:
    'Une clé NOSTR et un portefeuille Ğ1, avec un solde de zéro. Les clés s’affichent une seule fois.',
  emailLabel: 'Votre e-mail',
  register: 'Créer mon identité',
  scanTitle: '2. Scanner des QR codes',
  scanIntro:
    'Scannez autant de codes que vous voulez, avec la caméra ou depuis des images. Ils sont lus dans cette page : rien n’est envoyé.',
  cameraStart: 'Scanner avec la caméra',
  cameraStop: 'Arrêter la caméra',
  fileLabel: 'Ou choisissez des images contenant des QR codes',
  clear: 'Vider la liste',
  resultsTitle: 'Codes reconnus',
  js: {
    registering: 'Création de votre identité…',
    failed: 'Échec',
    badEmail: 'Tapez une adresse e-mail valide (nom@domaine.fr).',
    cameraOn: 'Caméra active : présentez les QR codes un par un.',
    cameraProblems: {
      unsupported:
        'La caméra n’est pas disponible ici (elle demande une page en HTTPS) : choisissez une image.',
      denied: 'Accès à la caméra refusé : autorisez-le ou choisissez une image.',
      'no-camera': 'Aucune caméra utilisable : choisissez une image.',
      failed: 'La caméra n’a pas pu démarrer : choisissez une image.',
    },
    reading: 'Lecture des images…',
    noCode: 'Aucun QR code trouvé dans',
    unreadable: 'Image illisible :',
    empty: 'Aucun code pour l’instant.',
    kinds: {
      npub: 'Clé publique NOSTR',
      nprofile: 'Profil NOSTR',
      nsec: 'Clé secrète NOSTR',
      'nostr-event': 'Note ou événement NOSTR',
      'g1-address': 'Portefeuille Ğ1',
      'g1-v1': 'Clé Ğ1 (v1)',
      'hex-key': 'Clé hexadécimale (peut-être secrète)',
      email: 'E-mail',
      'station-link': 'Lien de cette station',
      'ipfs-link': 'Lien IPFS',
      link: 'Lien',
      text: 'Texte',
    },
    secretWarning: 'Secret : gardé dans cette page, jamais envoyé. Ne montrez pas ce code.',
    publicKeyOf: 'Clé publique correspondante :',
    wallet: 'Portefeuille Ğ1 :',
    relays: 'Relais :',
    links: {
      balance: 'Solde',
      checkKey: 'Vérifier sur cette station',
      profile: 'Profil vu par la station',
      open: 'Ouvrir',
    },
    keys: keysLabels('fr'),
  },
};

const en: ScanLabels = {
  title: 'Scan',
  intro:
    'Create your UPlanet identity with your e-mail, then scan the QR codes of identity cards, Ğ1 wallets and station links.',
  registerTitle: '1. Create my identity',
  registerIntro: 'A NOSTR key and a Ğ1 wallet, with a zero balance. The keys are shown only once.',
  emailLabel: 'Your e-mail',
  register: 'Create my identity',
  scanTitle: '2. Scan QR codes',
  scanIntro:
    'Scan as many codes as you like, with the camera or from pictures. They are read in this page: nothing is sent.',
  cameraStart: 'Scan with the camera',
  cameraStop: 'Stop the camera',
  fileLabel: 'Or choose pictures holding QR codes',
  clear: 'Clear the list',
  resultsTitle: 'Recognised codes',
  js: {
    registering: 'Creating your identity…',
    failed: 'Failed',
    badEmail: 'Type a valid e-mail address (name@domain.org).',
    cameraOn: 'Camera on: show the QR codes one by one.',
    cameraProblems: {
      unsupported: 'The camera is not available here (it needs an HTTPS page): choose a picture.',
      denied: 'Camera access refused: allow it or choose a picture.',
      'no-camera': 'No usable camera: choose a picture.',
      failed: 'The camera could not start: choose a picture.',
    },
    reading: 'Reading the pictures…',
    noCode: 'No QR code found in',
    unreadable: 'Unreadable picture:',
    empty: 'No code yet.',
    kinds: {
      npub: 'NOSTR public key',
      nprofile: 'NOSTR profile',
      nsec: 'NOSTR secret key',
      'nostr-event': 'NOSTR note or event',
      'g1-address': 'Ğ1 wallet',
      'g1-v1': 'Ğ1 key (v1)',
      'hex-key': 'Hexadecimal key (maybe secret)',
      email: 'E-mail',
      'station-link': 'Link to this station',
      'ipfs-link': 'IPFS link',
      link: 'Link',
      text: 'Text',
    },
    secretWarning: 'Secret: kept in this page, never sent. Do not show this code around.',
    publicKeyOf: 'Matching public key:',
    wallet: 'Ğ1 wallet:',
    relays: 'Relays:',
    links: {
      balance: 'Balance',
      checkKey: 'Check on this station',
      profile: 'Profile seen by the station',
      open: 'Open',
    },
    keys: keysLabels('en'),
  },
};

export function scanLabels(lang: Language): ScanLabels {
  return lang === 'fr' ? fr : en;
}
