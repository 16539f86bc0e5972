import { key } from './key.js';

export const webcam = {
  title: 'Webcam',
  intro:
    'Enregistrez une vidéo avec la caméra de cet appareil et déposez-la dans votre uDRIVE (dossier Videos), publiée sur IPFS. Rien ne part avant que vous cliquiez sur « Envoyer ».',
  ...key.page,
  recordTitle: '2. Enregistrer',
  cameraStart: 'Allumer la caméra',
  record: 'Enregistrer',
  stop: 'Arrêter',
  uploadTitle: '3. Envoyer dans mon uDRIVE',
  upload: 'Envoyer',
  js: {
    ...key.js,
    failed: 'Échec',
    cameraOn: 'Caméra allumée.',
    cameraProblems: {
      unsupported: 'La caméra n’est pas disponible ici (il faut une page HTTPS).',
      denied: 'L’accès à la caméra a été refusé : autorisez-le dans le navigateur.',
      'no-camera': 'Aucune caméra utilisable sur cet appareil.',
      failed: 'La caméra n’a pas pu démarrer.',
    },
    recorderUnsupported: 'Ce navigateur ne sait pas enregistrer de vidéo.',
    recording: 'Enregistrement…',
    recorded: 'Vidéo enregistrée',
    connectFirst: 'Connectez d’abord votre clé NOSTR (étape 1).',
    uploading: 'Envoi…',
    uploaded: 'Vidéo déposée dans votre uDRIVE.',
    open: 'Ouvrir la vidéo sur IPFS',
  },
};
