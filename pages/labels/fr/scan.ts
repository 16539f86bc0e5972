import { keys } from './keys.js';

export const scan = {
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
    keys: keys,
  },
};
