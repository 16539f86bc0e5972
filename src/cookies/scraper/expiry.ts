import { openRegularNoFollow, readLines } from '../files.js';
import { classifyLine, stripBom } from '../netscape.js';

/**
 * True when the file holds at least one cookie and every one of them has an expiry in the past. A session
 * cookie (expiry 0) has none, so its file is never "expired": only the site can say whether it still works.
 * Read line by line as cookie intake reads it (no symbolic link followed, lines bounded), stopping at the
 * first live cookie; cookie values never leave this function.
 */
export async function cookiesAllExpired(path: string, nowSeconds: number): Promise<boolean> {
  const handle = await openRegularNoFollow(path);
  // Removed (or swapped for a link) since the listing: nothing to call expired.
  if (!handle) return false;
  let cookies = 0;
  let first = true;
  try {
    for await (const raw of readLines(handle.createReadStream({ autoClose: false }))) {
      const line = classifyLine(first ? stripBom(raw) : raw);
      first = false;
      if (line.kind !== 'cookie') continue;
      if (line.expires === 0 || line.expires > nowSeconds) return false;
      cookies += 1;
    }
  } finally {
    await handle.close();
  }
  return cookies > 0;
}
