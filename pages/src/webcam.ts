// The webcam page: connect a NOSTR key, record a video with the camera, upload it to the uDRIVE with progress.
import type { WebcamScriptLabels } from '../labels/types.js';
import { CameraError } from './lib/camera.js';
import { byId, element, formatBytes } from './lib/dom.js';
import { ApiError, failureText, sendWithProgress } from './lib/http.js';
import { multipartBody } from './lib/multipart.js';
import { nip98Authorization, stationUrl } from './lib/nip98.js';
import { startPage } from './lib/page.js';
import { CameraRecorder, type Recording } from './lib/recorder.js';
import { signerProblem, wireSigner } from './lib/signer-block.js';

const page = startPage<WebcamScriptLabels>('webcam-app');
const { t } = page;
/** The station's IPFS gateway, where the uploaded video is linked. */
const gateway = (page.root.dataset.gateway ?? '').replace(/\/+$/, '');

const cameraStart = byId<HTMLButtonElement>('camera-start');
const recordStart = byId<HTMLButtonElement>('record-start');
const recordStop = byId<HTMLButtonElement>('record-stop');
const playback = byId<HTMLVideoElement>('playback');
const status = byId('record-status');
const uploadButton = byId<HTMLButtonElement>('upload-button');
const progress = byId<HTMLProgressElement>('upload-progress');
const result = byId('upload-result');

/** The fields of `/api/fileupload`'s answer this page uses. */
interface UploadAnswer {
  message?: string;
  /** The file's own `ipfs add -w` directory: `<new_cid>/<fileName>` is the file (UPassport's convention). */
  new_cid?: string;
  fileName?: string;
  file_cid?: string;
}

let recording: Recording | null = null;
let playbackUrl: string | null = null;

const recorder = new CameraRecorder(byId<HTMLVideoElement>('camera'), (bytes) => {
  status.dataset.bytes = String(bytes);
  status.textContent = `${t.recording} ${formatBytes(bytes)}`;
});

function showError(error: unknown): void {
  if (error instanceof CameraError) return page.error.show(t.cameraProblems[error.problem]);
  page.error.show(signerProblem(error, t) ?? failureText(t.failed, error));
}

const keys = wireSigner(t, {
  onChange: () => refreshUpload(),
  onError: showError,
  onAttempt: page.error.clear,
});

function refreshUpload(): void {
  uploadButton.disabled = recording === null || keys.current() === null;
}

/** Where the gateway serves the upload, as UPlanet's pages build it; the bare file CID otherwise. */
function linkOf(answer: UploadAnswer): string | null {
  if (answer.new_cid && answer.fileName)
    return `${gateway}/ipfs/${answer.new_cid}/${encodeURIComponent(answer.fileName)}`;
  return answer.file_cid ? `${gateway}/ipfs/${answer.file_cid}` : null;
}

cameraStart.addEventListener('click', () => {
  page.error.clear();
  if (!CameraRecorder.supported()) return page.error.show(t.recorderUnsupported);
  recorder.open().then(() => {
    cameraStart.hidden = true;
    recordStart.disabled = false;
    status.textContent = t.cameraOn;
  }, showError);
});

recordStart.addEventListener('click', () => {
  page.error.clear();
  try {
    recorder.start();
  } catch (error) {
    return showError(error);
  }
  recordStart.hidden = true;
  recordStop.hidden = false;
  status.dataset.bytes = '0';
  status.textContent = t.recording;
});

recordStop.addEventListener('click', () => {
  recordStop.disabled = true;
  void recorder.stop().then((done) => {
    recording = done;
    if (playbackUrl) URL.revokeObjectURL(playbackUrl);
    playbackUrl = URL.createObjectURL(done.blob);
    playback.src = playbackUrl;
    playback.hidden = false;
    recordStop.hidden = true;
    recordStop.disabled = false;
    recordStart.hidden = false;
    status.dataset.bytes = String(done.blob.size);
    status.textContent = `${t.recorded}: ${formatBytes(done.blob.size)}`;
    refreshUpload();
  }, showError);
});

uploadButton.addEventListener('click', () => void upload());

async function upload(): Promise<void> {
  const signer = keys.current();
  if (!signer) return page.error.show(t.connectFirst);
  if (!recording) return;
  page.error.clear();
  uploadButton.disabled = true;
  progress.value = 0;
  progress.hidden = false;
  result.replaceChildren(element('p', { text: t.uploading }));
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const file = new File([recording.blob], `webcam-${stamp}.${recording.extension}`, {
    type: recording.blob.type,
  });
  try {
    // The key is named before the file (the station refuses to stage a file for nobody) and the request is
    // signed over its exact bytes (NIP-98 payload).
    const form = await multipartBody({ npub: signer.npub }, file);
    const url = stationUrl('/api/fileupload');
    const authorization = await nip98Authorization(signer, url, 'POST', form.sha256);
    const answer = await sendWithProgress<UploadAnswer>(url, {
      method: 'POST',
      headers: { authorization, 'content-type': form.contentType, accept: 'application/json' },
      body: form.body,
      onProgress: (fraction) => (progress.value = Math.round(fraction * 100)),
    });
    progress.value = 100;
    const href = linkOf(answer);
    result.replaceChildren(
      element('p', { text: answer.message ?? t.uploaded, attrs: { 'data-outcome': 'success' } }),
      ...(href
        ? [
            element('p', {}, [
              element('a', { text: t.open, attrs: { id: 'upload-link', href, rel: 'noopener' } }),
            ]),
          ]
        : []),
    );
  } catch (error) {
    const code = error instanceof ApiError ? error.code : 'ERROR';
    result.replaceChildren(
      element('p', { text: failureText(t.failed, error), attrs: { 'data-outcome': code } }),
    );
  } finally {
    refreshUpload();
  }
}

page.ready();
