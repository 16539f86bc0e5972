import type { DirEntry } from './types.js';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** A plain HTML index of a directory, links percent-encoded and names escaped. */
export function directoryListing(path: string, entries: DirEntry[]): string {
  const base = `/ipfs/${path.split('/').map(encodeURIComponent).join('/')}`;
  // A sharded (HAMT) folder lists in hash order: people read names alphabetically.
  const rows = [...entries]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((entry) => {
      const href = `${base}/${encodeURIComponent(entry.name)}`;
      const size = entry.type === 'directory' ? '-' : String(entry.size);
      const label = entry.type === 'directory' ? `${entry.name}/` : entry.name;
      return `<tr><td><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></td><td>${size}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>/ipfs/${escapeHtml(path)}</title></head>
<body><h1>/ipfs/${escapeHtml(path)}</h1>
<table><thead><tr><th>Name</th><th>Size</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>
`;
}
