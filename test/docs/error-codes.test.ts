import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** `CODE: status` entries of the status table in src/http/error-status.ts. */
async function statuses(): Promise<Record<string, number>> {
  const text = await readFile(join(ROOT, 'src', 'http', 'error-status.ts'), 'utf8');
  const table = text.slice(text.indexOf('const STATUS'), text.indexOf('\n};', text.indexOf('const STATUS')));
  return Object.fromEntries([...table.matchAll(/^\s+([A-Z0-9_]+): (\d{3}),/gm)].map((m) => [m[1], +m[2]!]));
}

/** `| \`CODE\` | status |` rows of docs/api-contract.md §6. */
async function documented(): Promise<Record<string, number>> {
  const text = await readFile(join(ROOT, 'docs', 'api-contract.md'), 'utf8');
  const section = text.slice(text.indexOf('## §6'), text.indexOf('## §7'));
  return Object.fromEntries(
    [...section.matchAll(/^\| `([A-Z0-9_]+)`\s*\| (\d{3})\s*\|/gm)].map((m) => [m[1], +m[2]!]),
  );
}

describe('error codes', () => {
  it('are each documented in docs/api-contract.md §6, with the status the station answers', async () => {
    const answered = await statuses();
    expect(Object.keys(answered).length).toBeGreaterThan(100);
    expect(await documented()).toEqual(answered);
  });
});
