import { decodeFrame } from './qr-scan.js';

export type CameraProblem = 'unsupported' | 'denied' | 'no-camera' | 'failed';

export class CameraError extends Error {
  constructor(readonly problem: CameraProblem) {
    super(problem);
  }
}

/** Frames read per second: enough to catch a card held up, light on a phone's battery. */
const SCANS_PER_SECOND = 5;

/** What a failed `getUserMedia` means for the person in front of the page. */
export function problemOf(error: unknown): CameraProblem {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError')
    return 'no-camera';
  return 'failed';
}

/**
 * Reads QR codes from the camera until stopped, calling `onCode` for each code seen (repeats included:
 * the caller keeps the list). Camera access needs HTTPS (or localhost); the stream is stopped on `stop()`.
 */
export class CameraScanner {
  private stream: MediaStream | null = null;
  private timer: number | null = null;
  private readonly canvas = document.createElement('canvas');

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly onCode: (text: string) => void,
  ) {}

  async start(): Promise<void> {
    if (this.stream) return;
    if (!navigator.mediaDevices?.getUserMedia) throw new CameraError('unsupported');
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment' },
        audio: false,
      });
    } catch (error) {
      throw new CameraError(problemOf(error));
    }
    this.video.srcObject = this.stream;
    this.video.hidden = false;
    await this.video.play().catch(() => undefined);
    this.timer = window.setInterval(() => this.scan(), 1000 / SCANS_PER_SECOND);
  }

  stop(): void {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.video.srcObject = null;
    this.video.hidden = true;
  }

  private scan(): void {
    if (this.video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return;
    const text = decodeFrame(this.canvas, this.video);
    if (text) this.onCode(text);
  }
}
