import { key } from './key.js';

export const cookie = {
  title: 'Mes cookies',
  intro:
    'Un export de cookies (fichier « cookies.txt », format Netscape) permet aux programmes de votre station d’agir pour vous sur un site où vous êtes connecté : synchroniser vos vidéos aimées sur YouTube, chercher des annonces sur leboncoin… Le fichier reste privé dans votre dossier : il n’est jamais publié sur IPFS ni placé dans votre uDRIVE.',
  howTitle: 'Comment faire un export de cookies',
  howSteps: [
    'Installez une extension qui exporte les cookies au format Netscape, par exemple « Get cookies.txt LOCALLY » (Chrome, Firefox).',
    'Connectez-vous au site (youtube.com, leboncoin.fr…) dans ce navigateur.',
    'Sur une page de ce site, ouvrez l’extension et exportez les cookies du site courant seulement : un domaine par fichier.',
    'Envoyez le fichier ici. Quand les cookies expirent, refaites un export : le nouveau fichier remplace l’ancien.',
  ],
  safety:
    'Des cookies valent un mot de passe : ne les envoyez qu’à votre propre station. Votre clé secrète ne quitte jamais cette page.',
  ...key.page,
  uploadTitle: '2. Envoyer un fichier de cookies',
  fileLabel: 'Fichier cookies.txt (un seul domaine)',
  upload: 'Envoyer',
  listTitle: '3. Mes fichiers de cookies',
  refresh: 'Actualiser',
  js: {
    ...key.js,
    chooseFile: 'Choisissez d’abord un fichier.',
    uploading: 'Envoi…',
    uploaded: 'Fichier enregistré.',
    failed: 'Échec',
    noCookies: 'Aucun fichier de cookies pour l’instant.',
    sessionOnly: 'fin de session',
    expired: 'expiré',
    remove: 'Supprimer',
    confirmRemove: 'Confirmer la suppression',
    removed: 'Supprimé',
    unknownDomain: '(domaine inconnu)',
    notCookieFile:
      'Ce fichier n’est pas un export de cookies (cookies.txt au format Netscape : des lignes de 7 champs séparés par des tabulations) : il n’a pas été envoyé.',
    otherFiles: 'Pour mettre une photo ou un autre fichier dans votre uDRIVE, passez par',
    drivePage: 'la page uDRIVE',
    columns: {
      domain: 'Domaine',
      uploaded: 'Envoyé le',
      expires: 'Expire le',
      size: 'Taille',
      action: 'Action',
    },
    fields: { message: 'Message', domain: 'Domaine', file: 'Fichier', time: 'Date' },
  },
};
