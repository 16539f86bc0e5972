import { readFile } from 'node:fs/promises';
import autocannon, { type Options, type Result } from 'autocannon';
import { profiled } from './profile.js';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, all threads) used so far by the station: this process when it runs here, else
 * the process `pid` (BENCH_SERVER=process, read from /proc). CPU per request is steadier than requests per
 * second on a shared machine: it does not count the time the machine gave to someone else.
 */
async function cpuMs(pid?: number): Promise<number> {
  if (pid === undefined || pid === process.pid) {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * One autocannon run named `name` (profiled when BENCH_CPU_PROFILE asks), with the CPU milliseconds per
 * request the station's process `pid` used meanwhile.
 */
export async function measuredRun(
  name: string,
  pid: number | undefined,
  options: Options,
): Promise<{ result: Result; cpu_ms_per_request: number }> {
  const before = await cpuMs(pid);
  const result = await profiled(name, () => autocannon(options));
  const used = (await cpuMs(pid)) - before;
  const requests = Math.max(1, result.requests.total);
  return { result, cpu_ms_per_request: Math.round((used / requests) * 100) / 100 };
}
