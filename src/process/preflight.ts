import { lookup } from 'node:dns/promises';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { AddressNotLocal, DirectoryUnusable, HostUnresolved, serviceUser } from './startup-errors.js';

/**
 * Checks made before the station opens anything, so that a wrong setting stops start-up with one line naming
 * it (src/process/startup-errors.ts) instead of a stack trace from deep inside a store or a listener.
 */

const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** Addresses of this machine's interfaces, and all of 127.0.0.0/8 (Linux answers on every one of them). */
function isLocalAddress(address: string): boolean {
  if (isIP(address) === 4 && address.startsWith('127.')) return true;
  const bare = address.toLowerCase().split('%')[0];
  return Object.values(networkInterfaces()).some((entries) =>
    (entries ?? []).some((entry) => entry.address.toLowerCase().split('%')[0] === bare),
  );
}

/** HOST must be a wildcard, or resolve to at least one address of this machine. */
export async function checkListenHost(host: string, variable = 'HOST'): Promise<void> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (WILDCARDS.has(bare)) return;
  let addresses: string[];
  try {
    addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((entry) => entry.address);
  } catch (error) {
    throw new HostUnresolved(variable, host, (error as NodeJS.ErrnoException).code ?? 'no address');
  }
  if (!addresses.some(isLocalAddress)) throw new AddressNotLocal(variable, host);
}

/**
 * Makes `path` (and its parents) if needed, then creates and removes a file in it: a directory the service's
 * user may not write, on a read-only file system, or under a file fails here, named by `variable`.
 */
export async function ensureWritableDirectory(path: string, variable: string): Promise<void> {
  const probe = join(path, `.write-check-${process.pid}`);
  try {
    await mkdir(path, { recursive: true, mode: 0o700 });
    await writeFile(probe, '', { flag: 'wx', mode: 0o600 });
    await unlink(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A probe left by an earlier process with this pid: the directory is writable all the same.
    if (code === 'EEXIST') return void (await unlink(probe).catch(() => undefined));
    throw new DirectoryUnusable(variable, path, code ?? 'unknown error', serviceUser());
  }
}
