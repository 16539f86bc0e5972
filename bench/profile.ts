/**
 * `BENCH_CPU_PROFILE=<dir>`: writes a V8 CPU profile (`<dir>/<scenario>.cpuprofile`, open it in Chrome's
 * DevTools) of each scenario's measured window only, without the set-up (users, signed tokens) around it,
 * sampled every `BENCH_PROFILE_US` microseconds (1,000 by default).
 * `BENCH_HEAP_PROFILE=<dir>`: a sampling profile of what the window allocated on V8's heap, garbage included
 * (`<dir>/<scenario>.heapprofile`, DevTools' "Allocation sampling"): what makes the collector run. Both see
 * this process only: the station's own allocations when it runs here (not with BENCH_SERVER=process).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/** One sample per this many bytes allocated on average (V8's default is 32 KiB). */
const HEAP_SAMPLING_BYTES = 4096;

export async function profiled<T>(name: string, measure: () => Promise<T>): Promise<T> {
  const cpuDir = process.env.BENCH_CPU_PROFILE;
  const heapDir = process.env.BENCH_HEAP_PROFILE;
  if (!cpuDir && !heapDir) return measure();
  const session = new Session();
  session.connect();
  if (cpuDir) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', {
      interval: Number(process.env.BENCH_PROFILE_US ?? 1000),
    });
    await session.post('Profiler.start');
  }
  if (heapDir) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: HEAP_SAMPLING_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  try {
    return await measure();
  } finally {
    if (cpuDir) {
      const { profile } = await session.post('Profiler.stop');
      await save(cpuDir, `${name}.cpuprofile`, profile);
    }
    if (heapDir) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      await save(heapDir, `${name}.heapprofile`, profile);
    }
    session.disconnect();
  }
}

async function save(dir: string, file: string, profile: unknown): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, file), JSON.stringify(profile));
}
