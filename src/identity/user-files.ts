import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatGps, parseGps, type LatLon } from '../geo/coordinates.js';
import type { TwinKeys } from './keys.js';

/** What the service knows of one user, read from the files of its directory (docs/api-contract.md §3). */
export interface UserRecord {
  email: string;
  hex: string;
  npub: string;
  /** SS58 Ğ1 wallet address (`G1PUBNOSTR`), when the directory has one. */
  g1pub: string | null;
  gps: LatLon | null;
}

export const DRIVE_CATEGORIES = ['Images', 'Music', 'Videos', 'Documents'] as const;

async function readOptional(path: string): Promise<string | null> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Reads a user directory written by this service or by the station's shell tools; null if it is not one. */
export async function readUserDir(dir: string, email: string): Promise<UserRecord | null> {
  const [hex, npub, g1pub, gps] = await Promise.all(
    ['HEX', 'NPUB', 'G1PUBNOSTR', 'GPS'].map((name) => readOptional(join(dir, name))),
  );
  if (!hex || !/^[0-9a-f]{64}$/.test(hex)) return null;
  return { email, hex, npub: npub ?? '', g1pub: g1pub || null, gps: gps ? parseGps(gps) : null };
}

async function writeSecret(path: string, content: string): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Fills a fresh (temporary) directory with a new identity's files; the caller renames it into place. */
export async function writeUserDir(
  dir: string,
  keys: TwinKeys,
  extras: { gps: LatLon | null; lang: string | null },
): Promise<void> {
  const { nostr, g1 } = keys;
  await writeFile(join(dir, 'HEX'), `${nostr.hex}\n`, { flag: 'wx' });
  await writeFile(join(dir, 'NPUB'), `${nostr.npub}\n`, { flag: 'wx' });
  await writeFile(join(dir, 'G1PUBNOSTR'), `${g1.address}\n`, { flag: 'wx' });
  await writeSecret(
    join(dir, '.secret.nostr'),
    `NSEC=${nostr.nsec}; NPUB=${nostr.npub}; HEX=${nostr.hex};\n`,
  );
  await writeSecret(
    join(dir, '.secret.dunikey'),
    `Type: PubSec\nVersion: 1\npub: ${g1.pubV1}\nsec: ${g1.secretV1}\n`,
  );
  if (extras.gps) await writeFile(join(dir, 'GPS'), `${formatGps(extras.gps)}\n`, { flag: 'wx' });
  if (extras.lang) await writeFile(join(dir, 'LANG'), `${extras.lang}\n`, { flag: 'wx' });
  for (const category of DRIVE_CATEGORIES) {
    await mkdir(join(dir, 'APP', 'uDRIVE', category), { recursive: true });
  }
}
