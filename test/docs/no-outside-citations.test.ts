import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: comments cite documents of docs/, never a folder outside the repository
 * (docs/README.md), and what they cite exists, down to the section: the `§N` of docs/api-contract.md, the
 * quoted heading of any other document (`docs/decisions.md, "The relay on a thread of its own"`). The README
 * and the documents of docs/ link only to documents and headings that exist, and docs/README.md's table lists
 * every document of docs/.
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
/** `docs/decisions.md, "The daily schedule"` or `README, "Protection"` in a comment: a heading cited. */
const SOURCE_SECTION = /(?<![\w./-])(docs\/[\w-]+\.md|README(?:\.md)?),? "([^"\n]+)"/g;
/** A Markdown link to a document, `[text](path.md)`, and the heading quoted right after it, if any. */
const MARKDOWN_LINK = /\]\(((?:\.\.\/|docs\/)?[\w-]+\.md)\)(?:,? "([^"]{1,100})")?/g;
/** `see "Growing"` in a document: a heading of the same document. */
const SAME_DOCUMENT = /\bsee "([^"]{1,100})"/g;

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

/** The headings of a Markdown file (`#` lines outside code blocks), without their `#`s. */
async function headings(path: string): Promise<string[]> {
  const found: string[] = [];
  let fenced = false;
  for (const line of (await readFile(join(ROOT, path), 'utf8')).split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const match = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (match) found.push(match[1]!.trim());
  }
  return found;
}

/** Whether `path` has a heading starting with `section` (citations may shorten a heading to its start). */
async function hasSection(path: string, section: string): Promise<boolean> {
  const wanted = section.replace(/\s+/g, ' ');
  return existsSync(join(ROOT, path)) && (await headings(path)).some((heading) => heading.startsWith(wanted));
}

/** The README and every document of docs/. */
async function documents(): Promise<Array<{ path: string; text: string }>> {
  const names = (await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md'));
  const paths = ['README.md', ...names.map((name) => join('docs', name))];
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

  it('name headings of the documents they cite that exist', async () => {
    const missing: string[] = [];
    for (const { path, text } of await scannedSources()) {
      for (const match of text.matchAll(SOURCE_SECTION)) {
        const doc = match[1]!.startsWith('README') ? 'README.md' : match[1]!;
        if (!(await hasSection(doc, match[2]!))) missing.push(`${path}: ${doc}, "${match[2]}"`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the README and docs/', () => {
  it('link to documents and headings that exist', async () => {
    const missing: string[] = [];
    for (const { path, text } of await documents()) {
      for (const match of text.matchAll(MARKDOWN_LINK)) {
        const target = join(dirname(path), match[1]!);
        if (!existsSync(join(ROOT, target))) missing.push(`${path}: ${match[1]}`);
        else if (match[2] && !(await hasSection(target, match[2])))
          missing.push(`${path}: ${target}, "${match[2]}"`);
      }
      for (const match of text.matchAll(SAME_DOCUMENT)) {
        if (!(await hasSection(path, match[1]!))) missing.push(`${path}: "${match[1]}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('list every document of docs/ in the table of docs/README.md, and only those', async () => {
    const index = await readFile(join(ROOT, 'docs', 'README.md'), 'utf8');
    const listed = [...index.matchAll(/^\| \[[\w-]+\.md\]\(([\w-]+\.md)\)/gm)]
      .map((match) => match[1]!)
      .sort();
    const present = (await readdir(join(ROOT, 'docs'))).filter(
      (name) => name.endsWith('.md') && name !== 'README.md',
    );
    expect(listed).toEqual(present.sort());
  });
});
