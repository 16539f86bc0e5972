import jsQR, { type QRCode } from 'jsqr';

/** Bounds the work on one picture: a card sheet rarely holds more codes than this. */
const MAX_CODES_PER_IMAGE = 8;
/** Larger pictures are scaled down first: phone photos are 12+ Mpx, and codes stay readable at this size. */
const MAX_SIDE = 1600;

export class ImageUnreadableError extends Error {}

type Context2D = CanvasRenderingContext2D;

function context(canvas: HTMLCanvasElement): Context2D {
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new ImageUnreadableError('No 2D canvas in this browser');
  return ctx;
}

/** Paints over a code found, slightly beyond its corners, so the next pass finds the others. */
function blankOut(ctx: Context2D, code: QRCode): void {
  const { topLeftCorner: a, topRightCorner: b, bottomRightCorner: c, bottomLeftCorner: d } = code.location;
  const cx = (a.x + b.x + c.x + d.x) / 4;
  const cy = (a.y + b.y + c.y + d.y) / 4;
  const grow = (p: { x: number; y: number }) => ({ x: cx + (p.x - cx) * 1.25, y: cy + (p.y - cy) * 1.25 });
  const corners = [a, b, c, d].map(grow);
  ctx.fillStyle = '#fff';
  ctx.beginPath();
  corners.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  ctx.closePath();
  ctx.fill();
}

/**
 * Every QR code of what is drawn on `canvas` (jsQR reads one code per pass: each one found is painted
 * over and the picture read again). The canvas is modified.
 */
export function decodeAll(canvas: HTMLCanvasElement, limit = MAX_CODES_PER_IMAGE): string[] {
  const ctx = context(canvas);
  const found: string[] = [];
  for (let pass = 0; pass < limit; pass++) {
    const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const code = jsQR(data, width, height, { inversionAttempts: 'attemptBoth' });
    if (!code) break;
    if (code.data !== '') found.push(code.data);
    blankOut(ctx, code);
  }
  return found;
}

/** One code of a video frame, fast (no inversion): the camera loop calls it several times a second. */
export function decodeFrame(canvas: HTMLCanvasElement, video: HTMLVideoElement): string | null {
  const width = video.videoWidth;
  const height = video.videoHeight;
  if (!width || !height) return null;
  const scale = Math.min(1, 960 / Math.max(width, height));
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = context(canvas);
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR(data, canvas.width, canvas.height, { inversionAttempts: 'dontInvert' })?.data || null;
}

/** Loads an image file (PNG, JPEG, WebP, GIF, SVG…) through an <img>, which every browser decodes. */
async function loadImage(file: Blob): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return image;
  } catch {
    throw new ImageUnreadableError('This file is not an image the browser can read');
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The QR codes of an image file; the file is read in this page only. */
export async function decodeImageFile(file: Blob): Promise<string[]> {
  const image = await loadImage(file);
  const width = image.naturalWidth || image.width;
  const height = image.naturalHeight || image.height;
  if (!width || !height) throw new ImageUnreadableError('The image is empty');
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  // A white margin: jsQR needs the quiet zone around a code, which tight crops lose.
  const margin = 16;
  canvas.width = Math.round(width * scale) + 2 * margin;
  canvas.height = Math.round(height * scale) + 2 * margin;
  const ctx = context(canvas);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, margin, margin, canvas.width - 2 * margin, canvas.height - 2 * margin);
  return decodeAll(canvas);
}
