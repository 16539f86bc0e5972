import { keyLabels, keyScriptLabels, type KeyLabels, type KeyScriptLabels } from './key.js';
import type { Language } from './language.js';

// Also bundled into the drive explorer (pages/explorer/), which carries both languages: data only here.

/** Texts the drive view shows at run time (the `/drive` page's module and the published explorer). */
export interface DriveScriptLabels extends KeyScriptLabels {
  failed: string;
  chooseFile: string;
  uploading: string;
  uploaded: string;
  deleted: string;
  copiedToMine: string;
  noManifest: string;
  notRegistered: string;
  empty: string;
  file: string;
  files: string;
  download: string;
  copyLink: string;
  copied: string;
  play: string;
  remove: string;
  confirmRemove: string;
  copyToMine: string;
  owner: string;
  notOwner: string;
  openExplorer: string;
  folders: Record<'Documents' | 'Images' | 'Music' | 'Videos', string>;
}

export interface DriveLabels extends KeyLabels {
  title: string;
  intro: string;
  uploadTitle: string;
  fileLabel: string;
  upload: string;
  listTitle: string;
  refresh: string;
  js: DriveScriptLabels;
}

const fr: DriveLabels = {
  title: 'Mon uDRIVE',
  intro:
    'Votre uDRIVE est publié sur IPFS : chaque changement donne un nouveau CID racine, qui contient vos dossiers, manifest.json et un explorateur (_index.html) lisible depuis n’importe quelle passerelle.',
  ...keyLabels('fr'),
  uploadTitle: '2. Ajouter un fichier',
  fileLabel: 'Fichier',
  upload: 'Envoyer',
  listTitle: '3. Mes fichiers',
  refresh: 'Actualiser',
  js: {
    ...keyScriptLabels('fr'),
    failed: 'Échec',
    chooseFile: 'Choisissez d’abord un fichier.',
    uploading: 'Envoi…',
    uploaded: 'Fichier enregistré',
    deleted: 'Fichier supprimé',
    copiedToMine: 'Copié dans votre uDRIVE',
    noManifest: 'Ce dossier n’a pas de manifest.json lisible.',
    notRegistered: 'Cette clé n’a pas de uDRIVE sur cette station.',
    empty: '(vide)',
    file: 'fichier',
    files: 'fichiers',
    download: 'Télécharger',
    copyLink: 'Copier le lien',
    copied: 'Lien copié',
    play: 'Lire',
    remove: 'Supprimer',
    confirmRemove: 'Confirmer la suppression',
    copyToMine: 'Copier dans mon uDRIVE',
    owner: 'Vous êtes le propriétaire de ce uDRIVE.',
    notOwner: 'Ce uDRIVE appartient à une autre clé : vos envois vont dans votre propre uDRIVE.',
    openExplorer: 'Ouvrir l’explorateur publié',
    folders: { Documents: 'Documents', Images: 'Images', Music: 'Musique', Videos: 'Vidéos' },
  },
};

const en: DriveLabels = {
  title: 'My uDRIVE',
  intro:
    'Your uDRIVE is published on IPFS: each change gives a new root CID, holding your folders, manifest.json and an explorer (_index.html) that works from any gateway.',
  ...keyLabels('en'),
  uploadTitle: '2. Add a file',
  fileLabel: 'File',
  upload: 'Upload',
  listTitle: '3. My files',
  refresh: 'Refresh',
  js: {
    ...keyScriptLabels('en'),
    failed: 'Failed',
    chooseFile: 'Choose a file first.',
    uploading: 'Uploading…',
    uploaded: 'File saved',
    deleted: 'File deleted',
    copiedToMine: 'Copied into your uDRIVE',
    noManifest: 'This folder has no readable manifest.json.',
    notRegistered: 'This key has no uDRIVE on this station.',
    empty: '(empty)',
    file: 'file',
    files: 'files',
    download: 'Download',
    copyLink: 'Copy link',
    copied: 'Link copied',
    play: 'Play',
    remove: 'Delete',
    confirmRemove: 'Confirm deletion',
    copyToMine: 'Copy to my uDRIVE',
    owner: 'You own this uDRIVE.',
    notOwner: 'This uDRIVE belongs to another key: your uploads go to your own uDRIVE.',
    openExplorer: 'Open the published explorer',
    folders: { Documents: 'Documents', Images: 'Images', Music: 'Music', Videos: 'Videos' },
  },
};

export function driveLabels(lang: Language): DriveLabels {
  return lang === 'fr' ? fr : en;
}
