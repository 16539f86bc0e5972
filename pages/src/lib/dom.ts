/** Small DOM helpers for the pages. Text goes in as text (textContent), never as markup. */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}`);
  return element as T;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { text?: string; className?: string; attrs?: Record<string, string> } = {},
  children: Node[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.text !== undefined) node.textContent = options.text;
  if (options.className) node.className = options.className;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** JSON handed over by the server in a `data-*` attribute (no inline script under the CSP). */
export function readData<T>(node: HTMLElement, name: string): T {
  const raw = node.dataset[name];
  if (raw === undefined) throw new Error(`Missing data-${name}`);
  return JSON.parse(raw) as T;
}

export function shortKey(npub: string): string {
  return npub.length > 20 ? `${npub.slice(0, 12)}…${npub.slice(-6)}` : npub;
}

/** A local ISO date-time (`2026-11-22T10:00:00.000`, no zone: local time) in the page's language. */
export function formatLocal(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1048576).toFixed(1)} MB`;
}
