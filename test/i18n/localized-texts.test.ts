import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The station's sentences in both languages (docs/api-contract.md §6). That every error and message has both
 * is the type's business (`Localized` requires `en` and `fr`); this walks every `{ en: …, fr: … }` written in
 * the sources and checks what a type cannot: the French is a translation, not the English copied, and it
 * follows the pages' French typography (pages/labels/fr: a space before `:` and `;`, the ’ apostrophe).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['src', 'pages/src', 'pages/explorer'];

/** Texts that are the same in both languages: names and technical words only. */
const SAME_IN_BOTH = new Set<string>([]);

interface Pair {
  where: string;
  en: string;
  fr: string;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A string or template literal's text, each `${…}` as `{}`; undefined for anything else. */
function literalText(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join('');
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [left, right] = [literalText(node.left), literalText(node.right)];
    return left !== undefined && right !== undefined ? left + right : undefined;
  }
  return undefined;
}

async function localizedPairs(): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (const dir of SCANNED) {
    for (const path of await sourceFiles(dir)) {
      const source = ts.createSourceFile(path, await readFile(path, 'utf8'), ts.ScriptTarget.ES2022, true);
      const visit = (node: ts.Node): void => {
        if (ts.isObjectLiteralExpression(node) && node.properties.length === 2) {
          const texts = new Map<string, string | undefined>();
          for (const property of node.properties)
            if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name))
              texts.set(property.name.text, literalText(property.initializer));
          const [en, fr] = [texts.get('en'), texts.get('fr')];
          if (en !== undefined && fr !== undefined) {
            const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
            pairs.push({ where: `${relative(ROOT, path)}:${line}`, en, fr });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return pairs;
}

describe('the sentences written in both languages', () => {
  it('are found all over the sources (errors, refusals, messages)', async () => {
    const pairs = await localizedPairs();
    expect(pairs.length).toBeGreaterThan(150);
    for (const file of ['src/identity/user-store.ts', 'src/cookies/messages.ts', 'src/http/error-handler.ts'])
      expect(pairs.some((pair) => pair.where.startsWith(file))).toBe(true);
  });

  it('never give the English text as the French one', async () => {
    const copied = (await localizedPairs()).filter(
      (pair) => pair.fr.trim() === pair.en.trim() && !SAME_IN_BOTH.has(pair.en),
    );
    expect(copied).toEqual([]);
  });

  it('write French as the pages do: ’ for the apostrophe, a space before : and ;', async () => {
    // `Authorization: Nostr`, `http:`, `https:` and `nip42:` are names, not punctuation.
    const names = /Authorization: Nostr|https?:|\w+:\/\//g;
    // The scraper's mails (both languages in one mail) keep the typography their recipients already get.
    const shown = (await localizedPairs()).filter((pair) => !pair.where.startsWith('src/cookies/scraper/'));
    const misprinted = shown.filter((pair) => {
      const text = pair.fr.replace(names, '');
      return /\p{L}'\p{L}/u.test(text) || /[^\s{}]:(\s|$)/u.test(text) || /[^\s]; /.test(text);
    });
    expect(misprinted).toEqual([]);
  });
});
