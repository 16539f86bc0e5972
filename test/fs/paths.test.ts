import { relative, resolve, isAbsolute, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathEscapeError, within } from '../../src/fs/paths.js';

/** The rule as path.relative states it: what `within` must agree with, on any input. */
function byRelative(root: string, ...segments: string[]): string | 'escape' {
  const base = resolve(root);
  const target = resolve(base, ...segments);
  const rel = relative(base, target);
  if (rel !== '' && (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))) return 'escape';
  return target;
}

const outcome = (root: string, ...segments: string[]) => {
  try {
    return within(root, ...segments);
  } catch (error) {
    if (error instanceof PathEscapeError) return 'escape';
    throw error;
  }
};

describe('within', () => {
  it('resolves inside its root, the root itself included', () => {
    expect(within('/data/root', 'a', 'b.txt')).toBe('/data/root/a/b.txt');
    expect(within('/data/root/', 'a/./c/../b.txt')).toBe('/data/root/a/b.txt');
    expect(within('/data/root')).toBe('/data/root');
    expect(within('/data/root', 'a', '..')).toBe('/data/root');
  });

  it('refuses what leaves the root: parents, absolute segments, a sibling sharing its prefix', () => {
    expect(() => within('/data/root', '..')).toThrow(PathEscapeError);
    expect(() => within('/data/root', 'a/../../x')).toThrow(PathEscapeError);
    expect(() => within('/data/root', '/etc/passwd')).toThrow(PathEscapeError);
    expect(() => within('/data/root', '../root2/x')).toThrow(PathEscapeError);
    expect(() => within('/data/root', '..', 'root', 'x')).not.toThrow();
  });

  it('agrees with path.relative on every combination of awkward segments', () => {
    const pieces = [
      'a',
      '..',
      '.',
      '',
      '/',
      '/data/root',
      '/data/root2',
      'root',
      '../root',
      '..b',
      'b..',
      '.hidden',
    ];
    for (const root of ['/data/root', '/data/root/', '/', 'relative/root']) {
      for (const first of pieces)
        for (const second of pieces)
          expect(outcome(root, first, second)).toBe(byRelative(root, first, second));
    }
  });
});
