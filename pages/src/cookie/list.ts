import { element, formatBytes, formatLocal } from '../lib/dom.js';
import type { CookieScriptLabels } from '../../labels/types.js';
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

/** A cell that names its column (`data-label`): on a phone the rows stack and show it (station.css). */
function cell(label: string, options: { text?: string; className?: string } = {}, children: Node[] = []) {
  return element('td', { ...options, attrs: { 'data-label': label } }, children);
}

function expiryCell(entry: CookieEntry, { t, lang }: ListOptions): HTMLTableCellElement {
  const label = t.columns.expires;
  if (entry.expires_at === null) return cell(label, { text: t.sessionOnly, className: 'muted' });
  const past = new Date(entry.expires_at).getTime() < Date.now();
  const text = formatLocal(entry.expires_at, lang) + (past ? ` (${t.expired})` : '');
  return cell(label, { text, className: past ? 'expired' : '' });
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
  const { columns, unknownDomain } = options.t;
  parts.rows.replaceChildren(
    ...entries.map((entry) =>
      element('tr', { attrs: { 'data-file': entry.file, 'data-domain': entry.domain ?? '' } }, [
        cell(columns.domain, { text: entry.domain ?? unknownDomain, className: 'mono' }),
        cell(columns.uploaded, { text: formatLocal(entry.uploaded_at, options.lang) }),
        expiryCell(entry, options),
        cell(columns.size, { text: formatBytes(entry.size), className: 'num' }),
        cell(columns.action, {}, [removeButton(entry, options)]),
      ]),
    ),
  );
  parts.table.hidden = entries.length === 0;
  parts.empty.hidden = entries.length > 0;
}
