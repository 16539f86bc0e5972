import { toCanvas } from 'qrcode';
import { element } from './dom.js';

/** A QR code of `text` drawn in this page (no network): a canvas, with the text as its accessible name. */
export async function qrCanvas(text: string, label: string): Promise<HTMLCanvasElement> {
  const canvas = element('canvas', { className: 'qr', attrs: { role: 'img', 'aria-label': label } });
  await toCanvas(canvas, text, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  canvas.dataset.qr = text;
  return canvas;
}
