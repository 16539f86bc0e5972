import { readdir, readlink } from 'node:fs/promises';

/**
 * How many file descriptors this process holds on `path`, removed or not (Linux names a removed file's
 * target `<path> (deleted)` in /proc/self/fd).
 */
export async function openDescriptorsOn(path: string): Promise<number> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((target) => target === path || target === `${path} (deleted)`).length;
}
