import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import QRCode from 'qrcode';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';

const WIDTH = 320;
const HEIGHT = 240;

/**
 * A Y4M video (the raw format Chromium's fake camera plays in a loop) showing one QR code per frame, black
 * modules on white. Y4M is uncompressed YUV 4:2:0, so it is written here without any codec.
 */
export async function qrVideo(dir: string, texts: string[]): Promise<string> {
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F2:1 Ip A1:1 C420jpeg\n`);
  const frames: Buffer[] = [header];
  for (const text of texts) {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const quiet = 4;
    const scale = Math.floor(Math.min(WIDTH, HEIGHT) / (modules.size + 2 * quiet));
    const left = Math.floor((WIDTH - modules.size * scale) / 2);
    const top = Math.floor((HEIGHT - modules.size * scale) / 2);
    const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        if (!modules.get(row, col)) continue;
        for (let y = 0; y < scale; y++)
          luma.fill(
            16,
            (top + row * scale + y) * WIDTH + left + col * scale,
            (top + row * scale + y) * WIDTH + left + (col + 1) * scale,
          );
      }
    }
    const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
    frames.push(Buffer.from('FRAME\n'), luma, chroma);
  }
  const path = join(dir, 'camera.y4m');
  await writeFile(path, Buffer.concat(frames));
  return path;
}

/** Chromium whose camera is the given video file, access granted without a prompt. */
export function launchWithCamera(video: string): Promise<Browser> {
  return launchBrowser([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);
}
