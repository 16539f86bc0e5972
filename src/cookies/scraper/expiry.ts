import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { classifyLine, stripBom } from '../netscape.js';

/**
 * True when the file holds at least one cookie and every one of them has an expiry in the past. A session
 * cookie (expiry 0) has none, so its file is never "expired": only the site can say whether it still works.
 * Read line by line; cookie values never leave this function.
 */
export async function cookiesAllExpired(path: string, nowSeconds: number): Promise<boolean> {
  const lines = createInterface({
    input: createReadStream(path, { encoding: 'latin1' }),
    crlfDelay: Infinity,
  });
  let cookies = 0;
  let first = true;
  try {
    for await (const raw of lines) {
      const line = classifyLine(first ? stripBom(raw) : raw);
      first = false;
      if (line.kind !== 'cookie') continue;
      if (line.expires === 0 || line.expires > nowSeconds) return false;
      cookies += 1;
    }
  } finally {
    lines.close();
  }
  return cookies > 0;
}
