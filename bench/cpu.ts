import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, all threads) used so far by the station: this process when it runs here, else
 * the process `pid` (BENCH_SERVER=process, read from /proc). CPU per request is steadier than requests per
 * second on a shared machine: it does not count the time the machine gave to someone else.
 */
export async function cpuMs(pid?: number): Promise<number> {
  if (pid === undefined || pid === process.pid) {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** `measure`'s result with the CPU milliseconds per request it cost, `requests` being how many it made. */
export async function withCpuPerRequest<T>(
  pid: number | undefined,
  measure: () => Promise<T>,
  requests: (result: T) => number,
): Promise<{ result: T; cpu_ms_per_request: number }> {
  const before = await cpuMs(pid);
  const result = await measure();
  const used = (await cpuMs(pid)) - before;
  return { result, cpu_ms_per_request: Math.round((used / Math.max(1, requests(result))) * 100) / 100 };
}
