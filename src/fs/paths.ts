import { resolve, sep } from 'node:path';

/** Thrown when a computed path would leave its root; callers map it to a 400. */
export class PathEscapeError extends Error {
  readonly code = 'PATH_ESCAPE';
  constructor(readonly attempted: string) {
    super('Path escapes its root directory');
  }
}

/**
 * Resolves `segments` under `root` and guarantees the result stays inside it. Both are resolved (absolute,
 * normalised), so being inside is being the root or starting with it plus a separator: what `path.relative`
 * answers too, without resolving both again (test/fs/paths.test.ts checks they agree).
 */
export function within(root: string, ...segments: string[]): string {
  const base = resolve(root);
  const target = resolve(base, ...segments);
  if (target === base || target.startsWith(base.endsWith(sep) ? base : base + sep)) return target;
  throw new PathEscapeError(segments.join('/'));
}
