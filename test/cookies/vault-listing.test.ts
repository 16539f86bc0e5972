import { open, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTimestamp } from '../../src/clock.js';
import { CookieVault } from '../../src/cookies/vault.js';
import { ManualClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/temp.js';
import { cookieFile, cookieLine } from './fixtures.js';

const OWNER = { email: 'alice@example.org' };
/** A fixed modification time (whole seconds), so a rewrite can keep the file's version unchanged. */
const MTIME = 1_800_000_000;

describe('CookieVault.list parses each file version once', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let vault: CookieVault;
  let path: string;
  const content = (expires: number) => cookieFile([cookieLine('.youtube.com', { expires })]);
  const listedExpiry = async () => (await vault.list(OWNER))[0]?.expires_at;

  beforeAll(async () => {
    dir = await tempDir('vault-listing-');
    vault = new CookieVault({ users: { dirFor: () => dir.path }, clock: new ManualClock() });
    path = join(dir.path, '.youtube.com.cookie');
    await writeFile(path, content(1_900_000_000), { mode: 0o600 });
    await utimes(path, MTIME, MTIME);
  });
  afterAll(async () => dir.cleanup());

  it('answers an unchanged file from its cached expiry and re-reads a new version', async () => {
    expect(await listedExpiry()).toBe(localTimestamp(1_900_000_000 * 1000));
    // Same inode, size and modification time, other content: the listing does not read the file again.
    const handle = await open(path, 'r+');
    await handle.write(content(1_950_000_000), 0);
    await handle.close();
    await utimes(path, MTIME, MTIME);
    expect(await listedExpiry()).toBe(localTimestamp(1_900_000_000 * 1000));
    // A new modification time is a new version (intake writes a new file): parsed again.
    await utimes(path, MTIME, MTIME + 1);
    expect(await listedExpiry()).toBe(localTimestamp(1_950_000_000 * 1000));
  });
});
