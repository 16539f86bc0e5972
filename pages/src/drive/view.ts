// The drive view shared by the /drive page and the published explorer: folders, file rows, previews.
import type { PublishedFile } from '../../../src/drive/listing-schema.js';
import type { DriveScriptLabels } from '../../labels/types.js';
import { element, formatBytes, formatLocal } from '../lib/dom.js';
import { FOLDERS } from './entries.js';

/** URLs of a file: where it is shown, where it is downloaded from, the link handed out. */
export interface FileLinks {
  view(file: PublishedFile): string;
  download(file: PublishedFile): string;
  share(file: PublishedFile): string;
}

export interface ViewOptions {
  t: DriveScriptLabels;
  lang: string;
  links: FileLinks;
  onShare(file: PublishedFile, url: string): void;
  /** Given when the signer owns the drive. */
  onRemove?(file: PublishedFile): Promise<void>;
  /** Given when a signer looks at someone else's drive. */
  onCopy?(file: PublishedFile): Promise<void>;
}

function button(text: string, action: string, onClick: (button: HTMLButtonElement) => void) {
  const node = element('button', { text, attrs: { type: 'button', 'data-action': action } });
  node.addEventListener('click', () => onClick(node));
  return node;
}

/** Runs `work` with the button disabled; two clicks when `confirm` is given (nothing modal). */
function actionButton(text: string, action: string, work: () => Promise<void>, confirm?: string) {
  return button(text, action, (node) => {
    if (confirm && node.dataset.armed !== 'true') {
      node.dataset.armed = 'true';
      node.textContent = confirm;
      return;
    }
    node.disabled = true;
    void work().finally(() => (node.disabled = false));
  });
}

/** A thumbnail for images; a button that adds a player for audio and video (nothing loads before). */
function preview(file: PublishedFile, row: HTMLElement, { t, links }: ViewOptions): HTMLElement {
  const box = element('div', { className: 'preview' });
  if (file.category === 'Images') {
    box.append(element('img', { className: 'thumb', attrs: { src: links.view(file), alt: file.name } }));
  } else if (file.category === 'Music' || file.category === 'Videos') {
    box.append(
      button(`▶ ${t.play}`, 'play', (node) => {
        const player = element(file.category === 'Music' ? 'audio' : 'video', {
          attrs: { src: links.view(file), controls: '', preload: 'metadata' },
        });
        row.append(player);
        node.disabled = true;
        void player.play().catch(() => undefined);
      }),
    );
  } else {
    // The extension, as text: no icon font to load, nothing a system may lack.
    const extension = /\.([^.]{1,5})$/.exec(file.name)?.[1]?.toUpperCase() ?? '…';
    box.append(element('span', { text: extension, className: 'muted', attrs: { 'aria-hidden': 'true' } }));
  }
  return box;
}

function fileRow(file: PublishedFile, options: ViewOptions): HTMLLIElement {
  const { t, lang, links } = options;
  const row = element('li', { className: 'drive-file', attrs: { 'data-path': file.path } });
  const actions: HTMLElement[] = [
    element('a', {
      text: t.download,
      className: 'button',
      attrs: { href: links.download(file), download: file.name, 'data-action': 'download' },
    }),
    button(t.copyLink, 'copy-link', () => options.onShare(file, links.share(file))),
  ];
  const { onCopy, onRemove } = options;
  if (onCopy) actions.push(actionButton(t.copyToMine, 'copy-to-mine', () => onCopy(file)));
  if (onRemove) actions.push(actionButton(t.remove, 'remove', () => onRemove(file), t.confirmRemove));
  const meta = `${formatBytes(file.size)} · ${formatLocal(file.added_at, lang)}`;
  row.append(
    preview(file, row, options),
    element('div', { className: 'file-info' }, [
      element('span', { text: file.name, className: 'file-name' }),
      element('span', { text: meta, className: 'muted file-meta' }),
    ]),
    element('div', { className: 'file-actions' }, actions),
  );
  return row;
}

/** One collapsible section per folder, empty folders included, open when they hold files. */
export function renderDrive(container: HTMLElement, files: PublishedFile[], options: ViewOptions): void {
  const { t } = options;
  container.replaceChildren(
    ...FOLDERS.map((folder) => {
      const inFolder = files.filter((f) => f.category === folder);
      const size = inFolder.reduce((sum, f) => sum + f.size, 0);
      const count = `${inFolder.length} ${inFolder.length === 1 ? t.file : t.files} · ${formatBytes(size)}`;
      const details = element('details', { className: 'drive-folder', attrs: { 'data-folder': folder } }, [
        element('summary', {}, [
          element('span', { text: t.folders[folder], className: 'folder-name' }),
          element('span', { text: ` — ${count}`, className: 'muted folder-count' }),
        ]),
        inFolder.length > 0
          ? element(
              'ul',
              { className: 'drive-files' },
              inFolder.map((f) => fileRow(f, options)),
            )
          : element('p', { text: t.empty, className: 'muted' }),
      ]);
      details.open = inFolder.length > 0;
      return details;
    }),
  );
}
