import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every variable the configuration reads: `integer(env, 'PORT', …)`, `urls('RELAY_URLS')`, `env.HOME`. */
async function variablesRead(): Promise<Set<string>> {
  const dir = join(ROOT, 'src', 'config');
  const names = new Set<string>();
  for (const file of await readdir(dir)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const source = await readFile(join(dir, file), 'utf8');
    for (const match of source.matchAll(/\(\s*(?:env,\s*)?'([A-Z][A-Z0-9_]*)'/g)) names.add(match[1]!);
    for (const match of source.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\['([A-Z][A-Z0-9_]*)'\])/g))
      names.add((match[1] ?? match[2])!);
  }
  return names;
}

/** The variables named in the first column of the table under "## Variables" in docs/configuration.md. */
async function variablesDocumented(): Promise<Set<string>> {
  const text = await readFile(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const start = text.indexOf('\n## Variables\n');
  expect(start).toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const first = line.split('|')[1]!;
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]!);
  }
  return names;
}

describe('the configuration table of docs/configuration.md', () => {
  it('names every variable the configuration reads, and only those', async () => {
    const read = await variablesRead();
    const documented = await variablesDocumented();
    // HOME is the user's own: only the defaults of DATA_ROOT and TMP_DIR derive from it.
    read.delete('HOME');
    expect(read.size).toBeGreaterThan(50);
    expect([...read].filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !read.has(name))).toEqual([]);
  });
});
