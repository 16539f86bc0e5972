#!/usr/bin/env node
// Bundles the browser modules of pages/ into dist/pages/ so pages work offline (no CDN), and builds the
// drive explorer (pages/explorer/) into one self-contained file, dist/explorer/_index.html.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { importer } from 'ipfs-unixfs-importer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function buildPages({
  outdir = join(root, 'dist', 'pages'),
  explorerOutdir = join(root, 'dist', 'explorer'),
} = {}) {
  const sourceDir = join(root, 'pages', 'src');
  const entries = (await readdir(sourceDir).catch(() => []))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(sourceDir, name));
  if (entries.length > 0)
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
  await buildExplorer({ outdir: explorerOutdir });
}

/** CSP source of an inline element's text (the browser hashes its UTF-8 bytes). */
const cspHash = (text) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;

/** The CID `ipfs add` gives these bytes with Kubo's defaults (the station's stores use the same). */
async function kuboCid(bytes) {
  const sink = { put: async (cid) => cid };
  let cid = null;
  for await (const entry of importer([{ content: bytes }], sink, {
    profile: 'unixfs-v0-2015',
    reduceSingleLeafToSelf: true,
  }))
    cid = entry.cid.toString();
  return cid;
}

/**
 * One HTML file with its script and style inline: it must run offline, from any gateway and path, so it
 * loads nothing. The gateway allows exactly these two inline elements by hash (`explorer.json`), and knows
 * the file by its CID: the same bytes in every drive.
 */
export async function buildExplorer({ outdir = join(root, 'dist', 'explorer') } = {}) {
  const dir = join(root, 'pages', 'explorer');
  const bundle = await build({
    entryPoints: [join(dir, 'main.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  const script = bundle.outputFiles[0].text.trim();
  // An HTML parser ends a script at `</script`, whatever JavaScript thinks of it.
  if (/<\/script/i.test(script)) throw new Error('The explorer bundle contains "</script"');
  const css = [
    await readFile(join(root, 'pages', 'views', 'station.css'), 'utf8'),
    await readFile(join(dir, 'explorer.css'), 'utf8'),
  ].join('\n');
  const style = (await transform(css, { loader: 'css', minify: true })).code.trim();
  const template = await readFile(join(dir, 'explorer.html'), 'utf8');
  if (!template.includes('<style></style>') || !template.includes('<script></script>'))
    throw new Error('pages/explorer/explorer.html needs one empty <style></style> and <script></script>');
  const html = template
    .replace('<style></style>', () => `<style>${style}</style>`)
    .replace('<script></script>', () => `<script>${script}</script>`);
  const bytes = Buffer.from(html, 'utf8');
  const facts = { cid: await kuboCid(bytes), script: cspHash(script), style: cspHash(style) };
  await mkdir(outdir, { recursive: true });
  await writeFile(join(outdir, '_index.html'), bytes);
  await writeFile(join(outdir, 'explorer.json'), `${JSON.stringify(facts, null, 2)}\n`);
  return facts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPages();
