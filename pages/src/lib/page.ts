import { byId, readData } from './dom.js';
import { failureText } from './http.js';

/** The page's `#page-error` line: one sentence at a time, as text. */
export interface ErrorLine {
  show(text: string): void;
  clear(): void;
  /** "<failed>: <what the station or the browser said>". */
  failed(error: unknown): void;
}

export interface PageStart<T> {
  root: HTMLElement;
  /** The texts the server handed over in `data-labels` (pages/labels/<lang>/<page>.ts). */
  t: T;
  lang: string;
  error: ErrorLine;
  /** Marks the page wired: `data-ready="true"` on the root (what the browser tests wait for). */
  ready(): void;
}

/** What every page module starts with: its root `#<appId>`, its texts, its language and its error line. */
export function startPage<T extends { failed: string }>(appId: string): PageStart<T> {
  const root = byId(appId);
  const t = readData<T>(root, 'labels');
  const line = byId('page-error');
  return {
    root,
    t,
    lang: root.dataset.lang ?? 'fr',
    error: {
      show: (text) => (line.textContent = text),
      clear: () => (line.textContent = ''),
      failed: (error) => (line.textContent = failureText(t.failed, error)),
    },
    ready: () => (root.dataset.ready = 'true'),
  };
}
