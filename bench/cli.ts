/**
 * Wall time of the operator's CLI, per command: `npm run station -- <command>` (npm, the build check, the
 * CLI) and `node dist/src/cli/main.js <command>` (the `station` binary alone), on an empty station in a
 * temp HOME with no service running. Run: `node --import tsx bench/cli.ts` (dist/ is built first when stale,
 * so that no build is timed). Prints one line per command: the median and the slowest of BENCH_RUNS runs
 * (default 5), in ms.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const COMMANDS = [
  ['--help'],
  ['status'],
  ['users', 'list'],
  ['payments', 'list'],
  ['relay', '--help'],
  ['drive', '--help'],
  ['gc', '--help'],
  // These two open the drive's index and content store as the running station does.
  ['gc'],
  ['drive', 'ls', '--user', 'nobody@example.org'],
];

function timeOf(file: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const run = spawnSync(file, args, { cwd: ROOT, env, stdio: 'ignore' });
  if (run.error) throw run.error;
  return performance.now() - started;
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${Math.round(median)} ms, slowest ${Math.round(sorted.at(-1)!)} ms`;
}

const home = await mkdtemp(join(tmpdir(), 'bench-cli-'));
try {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
  // A port nothing listens on: `status` finds no service and reads the (empty) DATA_ROOT.
  const env = { PATH: process.env.PATH ?? '', HOME: home, PORT: '9' };
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  for (const command of COMMANDS) {
    const viaNpm = Array.from({ length: RUNS }, () =>
      timeOf(npm, ['run', '-s', 'station', '--', ...command], env),
    );
    const direct = Array.from({ length: RUNS }, () =>
      timeOf(process.execPath, [join(ROOT, 'dist', 'src', 'cli', 'main.js'), ...command], env),
    );
    console.log(
      `${command.join(' ').padEnd(16)} npm run station: ${summary(viaNpm)}; dist/src/cli/main.js: ${summary(direct)}`,
    );
  }
} finally {
  await rm(home, { recursive: true, force: true });
}
