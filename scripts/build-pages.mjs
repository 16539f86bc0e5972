#!/usr/bin/env node
// Bundles the browser modules of pages/ into dist/pages/ so pages work offline (no CDN).
import { build } from 'esbuild';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function buildPages({ outdir = join(root, 'dist', 'pages') } = {}) {
  const sourceDir = join(root, 'pages', 'src');
  const entries = (await readdir(sourceDir).catch(() => []))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(sourceDir, name));
  if (entries.length === 0) return;
  await build({
    entryPoints: entries,
    outdir,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPages();
