import { element, formatBytes, formatLocal } from '../lib/dom.js';
import type { CookieScriptLabels } from '../../../src/http/page-labels/cookie.js';
import type { CookieEntry } from '../../../src/cookies/schemas.js';

export interface ListParts {
  rows: HTMLElement;
  table: HTMLElement;
  empty: HTMLElement;
}

export interface ListOptions {
  t: CookieScriptLabels;
  lang: string;
  onRemove: (entry: CookieEntry) => Promise<void>;
}

function expiryCell(entry: CookieEntry, { t, lang }: ListOptions): HTMLTableCellElement {
  if (entry.expires_at === null) return element('td', { text: t.sessionOnly, className: 'muted' });
  const past = new Date(entry.expires_at).getTime() < Date.now();
  const text = formatLocal(entry.expires_at, lang) + (past ? ` (${t.expired})` : '');
  return element('td', { text, className: past ? 'expired' : '' });
}

function removeButton(entry: CookieEntry, { t, onRemove }: ListOptions): HTMLButtonElement {
  const button = element('button', { text: t.remove, attrs: { type: 'button', 'data-action': 'remove' } });
  // Two steps instead of confirm(): nothing modal, and a stray click deletes nothing.
  button.addEventListener('click', () => {
    if (button.dataset.armed !== 'true') {
      button.dataset.armed = 'true';
      button.textContent = t.confirmRemove;
      return;
    }
    button.disabled = true;
    void onRemove(entry).finally(() => (button.disabled = false));
  });
  return button;
}

/** The owner's cookie files as table rows; every value goes in as text. */
export function renderList(parts: ListParts, entries: CookieEntry[], options: ListOptions): void {
  parts.rows.replaceChildren(
    ...entries.map((entry) =>
      element('tr', { attrs: { 'data-file': entry.file, 'data-domain': entry.domain ?? '' } }, [
        element('td', { text: entry.domain ?? options.t.unknownDomain, className: 'mono' }),
        element('td', { text: formatLocal(entry.uploaded_at, options.lang) }),
        expiryCell(entry, options),
        element('td', { text: formatBytes(entry.size), className: 'num' }),
        element('td', {}, [removeButton(entry, options)]),
      ]),
    ),
  );
  parts.table.hidden = entries.length === 0;
  parts.empty.hidden = entries.length > 0;
}
