import { CameraError, problemOf } from './camera.js';

/** Containers the station files as Videos, in the order a browser is asked for them. */
const TYPES = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'];
/** A chunk every half second: the page can show the size growing, and a crash loses little. */
const CHUNK_MS = 500;

export interface Recording {
  blob: Blob;
  /** `webm` or `mp4`, for the file name. */
  extension: string;
}

/**
 * The camera (and the microphone when there is one) shown live in `preview`, recorded with MediaRecorder.
 * `onData` gets the bytes recorded so far as chunks arrive.
 */
export class CameraRecorder {
  private stream: MediaStream | null = null;
  private recorder: MediaRecorder | null = null;
  private chunks: Blob[] = [];

  constructor(
    private readonly preview: HTMLVideoElement,
    private readonly onData: (bytes: number) => void,
  ) {}

  static supported(): boolean {
    return typeof MediaRecorder !== 'undefined';
  }

  async open(): Promise<void> {
    if (this.stream) return;
    if (!navigator.mediaDevices?.getUserMedia) throw new CameraError('unsupported');
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    } catch {
      // No microphone (or no right to it) still leaves a silent video.
      try {
        this.stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: false });
      } catch (error) {
        throw new CameraError(problemOf(error));
      }
    }
    this.preview.srcObject = this.stream;
    this.preview.hidden = false;
    await this.preview.play().catch(() => undefined);
  }

  start(): void {
    if (!this.stream) throw new CameraError('failed');
    const mimeType = TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    this.recorder = new MediaRecorder(this.stream, mimeType ? { mimeType } : {});
    this.chunks = [];
    this.recorder.ondataavailable = (event) => {
      if (event.data.size === 0) return;
      this.chunks.push(event.data);
      this.onData(this.chunks.reduce((sum, chunk) => sum + chunk.size, 0));
    };
    this.recorder.start(CHUNK_MS);
  }

  /** Ends the recording; resolves once its last chunk is in. */
  stop(): Promise<Recording> {
    const recorder = this.recorder;
    if (!recorder) return Promise.reject(new CameraError('failed'));
    return new Promise((resolve) => {
      recorder.onstop = () => {
        const type = (recorder.mimeType || 'video/webm').split(';')[0]!;
        resolve({ blob: new Blob(this.chunks, { type }), extension: type === 'video/mp4' ? 'mp4' : 'webm' });
      };
      recorder.stop();
      this.recorder = null;
    });
  }

  close(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.preview.srcObject = null;
    this.preview.hidden = true;
  }
}
