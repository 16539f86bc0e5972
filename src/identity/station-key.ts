import { link, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { hexToBytes } from '@noble/hashes/utils.js';
import { generateSecretKey, getPublicKey, nip19 } from 'nostr-tools';
import { openTemp } from '../fs/atomic.js';

export interface StationKey {
  secretKey: Uint8Array;
  hex: string;
  npub: string;
}

/** `DATA_ROOT/station/.secret.nostr`, in the format of the users' own `.secret.nostr`. */
export function stationKeyPath(dataRoot: string): string {
  return join(dataRoot, 'station', '.secret.nostr');
}

/**
 * The station's own NOSTR key: it authenticates the bot to its relay (NIP-42), which delivers kind-22242
 * login answers to that key only. Made once, with random bytes (a key derived from public settings such as
 * UPLANETNAME would be anybody's); every worker of a cluster and the CLI read the same file.
 */
export async function loadStationKey(dataRoot: string): Promise<StationKey> {
  const path = stationKeyPath(dataRoot);
  await mkdir(join(dataRoot, 'station'), { recursive: true, mode: 0o700 });
  const existing = await readSecretKeyFile(path);
  if (existing) return existing;
  const secretKey = generateSecretKey();
  const hex = getPublicKey(secretKey);
  const npub = nip19.npubEncode(hex);
  const { path: temp, handle } = await openTemp(path, 0o600);
  try {
    await handle.writeFile(`NSEC=${nip19.nsecEncode(secretKey)}; NPUB=${npub}; HEX=${hex};\n`);
    await handle.sync();
    await handle.close();
    // link() fails if another process created the key first; then everyone uses that one.
    await link(temp, path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  } finally {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
  }
  const stored = await readSecretKeyFile(path);
  if (!stored) throw new Error(`the station key at ${path} is unreadable`);
  return stored;
}

/** A `.secret.nostr` file (the station's or a user's): its key, or null when there is no such file. */
export async function readSecretKeyFile(path: string): Promise<StationKey | null> {
  const secretKey = await readSecretKeyBytes(path);
  if (!secretKey) return null;
  const hex = getPublicKey(secretKey);
  return { secretKey, hex, npub: nip19.npubEncode(hex) };
}

/** The secret key of a `.secret.nostr` file alone, without deriving its public key (signing derives it). */
export async function readSecretKeyBytes(path: string): Promise<Uint8Array | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const nsec = /NSEC=(nsec1[0-9a-z]+)/.exec(text)?.[1];
  const hexSecret = /^[0-9a-f]{64}$/.test(text.trim()) ? text.trim() : null;
  const secretKey = nsec ? (nip19.decode(nsec).data as Uint8Array) : hexSecret ? hexToBytes(hexSecret) : null;
  if (!secretKey) throw new Error(`the key file ${path} holds no nsec`);
  return secretKey;
}
