import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Thrown when a computed path would leave its root; callers map it to a 400. */
export class PathEscapeError extends Error {
  readonly code = 'PATH_ESCAPE';
  constructor(readonly attempted: string) {
    super('Path escapes its root directory');
  }
}

/** Resolves `segments` under `root` and guarantees the result stays inside it. */
export function within(root: string, ...segments: string[]): string {
  const base = resolve(root);
  const target = resolve(base, ...segments);
  const rel = relative(base, target);
  if (rel === '') return target;
  if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))
    throw new PathEscapeError(segments.join('/'));
  return target;
}
