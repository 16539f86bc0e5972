import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';

/** This boot of this machine: a pid means the same process only within it. */
const bootId = (() => {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return hostname();
  }
})();

/** Names this process among the running processes of the machine: `<boot id>:<pid>` (file locks use it). */
export const processIdentity = `${bootId}:${process.pid}`;

/**
 * Names this process for good, `<boot id>:<pid>:<token>`: a later process given the same pid (a container's
 * pid 1 after a restart) has another token, so what this one left is known to be its predecessor's.
 */
export const processInstance = `${processIdentity}:${randomBytes(6).toString('hex')}`;

/** Whether a process `pid` runs on this machine (as any user). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Whether the process a `processIdentity` or `processInstance` names is known to be gone: a process of this boot that no longer
 * runs, or one of an earlier boot of this machine. A name of another machine (a shared DATA_ROOT over a
 * network), or unreadable, is not known to be gone.
 */
export function holderIsGone(named: string): boolean {
  if (named === processIdentity || named === processInstance) return false;
  const [boot, pidText, token, ...rest] = named.split(':');
  const pid = Number(pidText);
  if (rest.length > 0 || !boot || !Number.isSafeInteger(pid) || pid <= 0) return false;
  if (boot !== bootId) return /^[0-9a-f-]{36}$/.test(boot) && /^[0-9a-f-]{36}$/.test(bootId);
  if (pid === process.pid) return token !== undefined; // an earlier process that had this pid
  return !isRunning(pid);
}
