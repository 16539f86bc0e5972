import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: comments cite documents of docs/, never a folder outside the repository
 * (docs/README.md), and what they cite exists, down to the section of docs/api-contract.md.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['src', 'streams', 'pages', 'scripts', 'bench', 'test'];
const THIS_FILE = relative(ROOT, fileURLToPath(import.meta.url));
const TEXT = /\.(ts|mts|mjs|js|cjs|json|eta|css|html|sh|py|md|txt)$/;
const OUTSIDE = ['CONTRACT §', 'design card', '../shared'];

/** `docs/<name>.md`, not part of a longer path or URL (`/docs/json`, `site/docs/x.md`). */
const DOC_CITATION = /(?<![\w./-])docs\/([\w-]+)\.md/g;
/** `docs/api-contract.md §7` or `docs/api-contract.md §7, §8`: the section numbers cited. */
const CONTRACT_SECTIONS = /docs\/api-contract\.md (§\d+(?:, §\d+)*)/g;

async function textFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : textFiles(path);
      return entry.isFile() && TEXT.test(entry.name) ? [path] : [];
    }),
  );
  return nested.flat();
}

async function scannedSources(): Promise<Array<{ path: string; text: string }>> {
  const paths = (await Promise.all(SCANNED.map(textFiles))).flat().filter((path) => path !== THIS_FILE);
  return Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(ROOT, path), 'utf8') })));
}

/** The `## §N` headings of docs/api-contract.md. */
async function contractSections(): Promise<Set<string>> {
  const text = await readFile(join(ROOT, 'docs', 'api-contract.md'), 'utf8');
  return new Set([...text.matchAll(/^## (§\d+) /gm)].map((match) => match[1]!));
}

describe('citations in the sources', () => {
  it('never point outside the repository', async () => {
    const offenders = (await scannedSources()).flatMap(({ path, text }) =>
      OUTSIDE.filter((needle) => text.includes(needle)).map((needle) => `${path}: "${needle}"`),
    );
    expect(offenders).toEqual([]);
  });

  it('name documents of docs/ that exist', async () => {
    const missing = (await scannedSources()).flatMap(({ path, text }) =>
      [...text.matchAll(DOC_CITATION)]
        .map((match) => `docs/${match[1]}.md`)
        .filter((doc) => !existsSync(join(ROOT, doc)))
        .map((doc) => `${path}: ${doc}`),
    );
    expect(missing).toEqual([]);
  });

  it('name sections of docs/api-contract.md that exist', async () => {
    const sections = await contractSections();
    expect(sections.size).toBe(12);
    const missing = (await scannedSources()).flatMap(({ path, text }) =>
      [...text.matchAll(CONTRACT_SECTIONS)]
        .flatMap((match) => match[1]!.split(', '))
        .filter((section) => !sections.has(section))
        .map((section) => `${path}: docs/api-contract.md ${section}`),
    );
    expect(missing).toEqual([]);
  });
});
