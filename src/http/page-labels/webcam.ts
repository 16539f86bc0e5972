import { keyLabels, keyScriptLabels, type KeyLabels, type KeyScriptLabels } from './key.js';
import type { Language } from './language.js';

/** Texts the webcam page's module shows at run time (data attribute: no inline script). */
export interface WebcamScriptLabels extends KeyScriptLabels {
  failed: string;
  cameraOn: string;
  cameraProblems: { unsupported: string; denied: string; 'no-camera': string; failed: string };
  recorderUnsupported: string;
  recording: string;
  recorded: string;
  connectFirst: string;
  uploading: string;
  uploaded: string;
  open: string;
}

export interface WebcamLabels extends KeyLabels {
  title: string;
  intro: string;
  recordTitle: string;
  cameraStart: string;
  record: string;
  stop: string;
  uploadTitle: string;
  upload: string;
  js: WebcamScriptLabels;
}

const fr: WebcamLabels = {
  title: 'Webcam',
  intro:
    'Enregistrez une vidéo avec la caméra de cet appareil et déposez-la dans votre uDRIVE (dossier Videos), publiée sur IPFS. Rien ne part avant que vous cliquiez sur « Envoyer ».',
  ...keyLabels('fr'),
  recordTitle: '2. Enregistrer',
  cameraStart: 'Allumer la caméra',
  record: 'Enregistrer',
  stop: 'Arrêter',
  uploadTitle: '3. Envoyer dans mon uDRIVE',
  upload: 'Envoyer',
  js: {
    ...keyScriptLabels('fr'),
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

const en: WebcamLabels = {
  title: 'Webcam',
  intro:
    'Record a video with this device’s camera and put it in your uDRIVE (Videos folder), published on IPFS. Nothing is sent until you click “Upload”.',
  ...keyLabels('en'),
  recordTitle: '2. Record',
  cameraStart: 'Turn the camera on',
  record: 'Record',
  stop: 'Stop',
  uploadTitle: '3. Upload to my uDRIVE',
  upload: 'Upload',
  js: {
    ...keyScriptLabels('en'),
    failed: 'Failed',
    cameraOn: 'Camera on.',
    cameraProblems: {
      unsupported: 'The camera is not available here (it needs an HTTPS page).',
      denied: 'Camera access was refused: allow it in the browser.',
      'no-camera': 'No usable camera on this device.',
      failed: 'The camera could not start.',
    },
    recorderUnsupported: 'This browser cannot record video.',
    recording: 'Recording…',
    recorded: 'Video recorded',
    connectFirst: 'Connect your NOSTR key first (step 1).',
    uploading: 'Uploading…',
    uploaded: 'Video saved in your uDRIVE.',
    open: 'Open the video on IPFS',
  },
};

export function webcamLabels(lang: Language): WebcamLabels {
  return lang === 'fr' ? fr : en;
}
