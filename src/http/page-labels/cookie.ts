import { keyLabels, keyScriptLabels, type KeyLabels, type KeyScriptLabels } from './key.js';
import type { Language } from './language.js';

/** Texts the browser module shows at run time; handed to it through a data attribute (no inline script). */
export interface CookieScriptLabels extends KeyScriptLabels {
  chooseFile: string;
  uploading: string;
  uploaded: string;
  failed: string;
  noCookies: string;
  sessionOnly: string;
  expired: string;
  remove: string;
  confirmRemove: string;
  removed: string;
  unknownDomain: string;
  fields: { message: string; domain: string; file: string; time: string };
}

export interface CookieLabels extends KeyLabels {
  title: string;
  intro: string;
  howTitle: string;
  howSteps: string[];
  safety: string;
  uploadTitle: string;
  fileLabel: string;
  upload: string;
  listTitle: string;
  refresh: string;
  columns: { domain: string; uploaded: string; expires: string; size: string; action: string };
  js: CookieScriptLabels;
}

const fr: CookieLabels = {
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
  ...keyLabels('fr'),
  uploadTitle: '2. Envoyer un fichier de cookies',
  fileLabel: 'Fichier cookies.txt (un seul domaine)',
  upload: 'Envoyer',
  listTitle: '3. Mes fichiers de cookies',
  refresh: 'Actualiser',
  columns: {
    domain: 'Domaine',
    uploaded: 'Envoyé le',
    expires: 'Expire le',
    size: 'Taille',
    action: 'Action',
  },
  js: {
    ...keyScriptLabels('fr'),
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
    fields: { message: 'Message', domain: 'Domaine', file: 'Fichier', time: 'Date' },
  },
};

const en: CookieLabels = {
  title: 'My cookies',
  intro:
    'A cookie export (a "cookies.txt" file, Netscape format) lets your station’s programs act for you on a site where you are logged in: sync your liked YouTube videos, look for ads on leboncoin… The file stays private in your directory: it is never published to IPFS nor put in your uDRIVE.',
  howTitle: 'How to make a cookie export',
  howSteps: [
    'Install an extension that exports cookies in Netscape format, for example "Get cookies.txt LOCALLY" (Chrome, Firefox).',
    'Log in to the site (youtube.com, leboncoin.fr…) in that browser.',
    'On a page of that site, open the extension and export the cookies of the current site only: one domain per file.',
    'Upload the file here. When the cookies expire, export again: the new file replaces the old one.',
  ],
  safety:
    'Cookies are worth a password: only send them to your own station. Your secret key never leaves this page.',
  ...keyLabels('en'),
  uploadTitle: '2. Upload a cookie file',
  fileLabel: 'cookies.txt file (one domain)',
  upload: 'Upload',
  listTitle: '3. My cookie files',
  refresh: 'Refresh',
  columns: { domain: 'Domain', uploaded: 'Uploaded', expires: 'Expires', size: 'Size', action: 'Action' },
  js: {
    ...keyScriptLabels('en'),
    chooseFile: 'Choose a file first.',
    uploading: 'Uploading…',
    uploaded: 'File saved.',
    failed: 'Failed',
    noCookies: 'No cookie file yet.',
    sessionOnly: 'end of session',
    expired: 'expired',
    remove: 'Delete',
    confirmRemove: 'Confirm deletion',
    removed: 'Deleted',
    unknownDomain: '(unknown domain)',
    fields: { message: 'Message', domain: 'Domain', file: 'File', time: 'Date' },
  },
};

export function cookieLabels(lang: Language): CookieLabels {
  return lang === 'fr' ? fr : en;
}
