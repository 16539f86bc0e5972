#!/usr/bin/env node
// Builds the service (TypeScript → dist/) and the page bundles. `--if-stale` builds only when a source is
// newer than the last build, so `npm start` starts from the build in a second when nothing changed.
import { spawnSync } from 'node:child_process';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.built');
/** What a build reads: a change to any of these makes the build stale. */
const INPUTS = ['src', 'streams', 'pages', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

async function newestChange(path) {
  const info = await stat(path).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path, { withFileTypes: true });
  const times = await Promise.all(
    entries
      .filter((entry) => entry.name !== 'node_modules')
      .map((entry) => newestChange(join(path, entry.name))),
  );
  return Math.max(info.mtimeMs, ...times);
}

async function isStale() {
  const built = await stat(stamp).catch(() => null);
  if (!built) return true;
  const inputs = await Promise.all(INPUTS.map((input) => newestChange(join(root, input))));
  return Math.max(...inputs) > built.mtimeMs;
}

function compilerPath() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

async function build() {
  const tsc = compilerPath();
  if (!tsc) {
    // An install without devDependencies (`npm ci --omit=dev`) cannot build: it runs a build made elsewhere.
    console.error('build: TypeScript is not installed (devDependencies omitted); using dist/ as it is');
    return;
  }
  const started = Date.now();
  const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (compiled.status !== 0) process.exit(compiled.status ?? 1);
  const { buildPages } = await import('./build-pages.mjs');
  await buildPages();
  await writeFile(stamp, `${new Date().toISOString()}\n`);
  console.error(`build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// Run as a script (`node scripts/build.mjs`); imported (scripts/station.mjs), it only lends its functions.
const invoked = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked && (!process.argv.includes('--if-stale') || (await isStale()))) await build();

export { build, isStale };
