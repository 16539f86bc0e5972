import type { webcam as french } from '../fr/webcam.js';
import { key } from './key.js';

export const webcam: typeof french = {
  title: 'Webcam',
  intro:
    'Record a video with this device’s camera and put it in your uDRIVE (Videos folder), published on IPFS. Nothing is sent until you click “Upload”.',
  ...key.page,
  recordTitle: '2. Record',
  cameraStart: 'Turn the camera on',
  record: 'Record',
  stop: 'Stop',
  uploadTitle: '3. Upload to my uDRIVE',
  upload: 'Upload',
  js: {
    ...key.js,
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
