// The explorer's page, built as DOM (nothing parsed as markup): the same element ids as the /drive page
// (pages/views/drive.eta, partials/key.eta), so both are wired by the same modules.
import type { DriveLabels } from '../labels/types.js';
import { element } from '../src/lib/dom.js';

const button = (id: string, text: string, type = 'button') =>
  element('button', { text, attrs: { id, type } });

function keySection(t: DriveLabels): HTMLElement {
  return element('section', { className: 'panel', attrs: { 'aria-labelledby': 'key-title' } }, [
    element('h2', { text: t.keyTitle, attrs: { id: 'key-title' } }),
    element('p', {
      text: t.js.notConnected,
      className: 'muted',
      attrs: { id: 'key-status', role: 'status' },
    }),
    element('div', { attrs: { id: 'key-choices' } }, [
      element('div', { className: 'filters' }, [button('use-extension', t.useExtension)]),
      element('form', { className: 'lookup', attrs: { id: 'nsec-form', autocomplete: 'off' } }, [
        element('label', { text: t.nsecLabel, attrs: { for: 'nsec' } }),
        element('input', {
          attrs: { type: 'password', id: 'nsec', autocomplete: 'off', spellcheck: 'false', required: '' },
        }),
        element('button', { text: t.useNsec, attrs: { type: 'submit' } }),
      ]),
      element('p', { text: t.nsecHint, className: 'muted' }),
    ]),
    element('div', { className: 'filters' }, [button('forget-key', t.forget)]),
  ]);
}

function uploadSection(t: DriveLabels): HTMLElement {
  const progress = element('progress', { attrs: { id: 'upload-progress', max: '100', value: '0' } });
  progress.hidden = true;
  return element('section', { className: 'panel', attrs: { id: 'upload-section' } }, [
    element('h2', { text: t.uploadTitle }),
    element('form', { className: 'lookup', attrs: { id: 'upload-form' } }, [
      element('label', { text: t.fileLabel, attrs: { for: 'drive-file' } }),
      element('input', { attrs: { type: 'file', id: 'drive-file', name: 'file', required: '' } }),
      button('upload-button', t.upload, 'submit'),
    ]),
    progress,
  ]);
}

/** Fills `root` with the explorer: header, key block, upload block (hidden until a key), the drive. */
export function buildSkeleton(root: HTMLElement, t: DriveLabels): void {
  const header = element('header', { className: 'top' }, [
    element('span', { text: 'uDRIVE', className: 'brand' }),
    element('span', { className: 'muted mono root', attrs: { id: 'drive-root' } }),
  ]);
  const upload = uploadSection(t);
  upload.hidden = true;
  root.replaceChildren(
    header,
    element('main', {}, [
      keySection(t),
      upload,
      element('p', { className: 'muted', attrs: { id: 'owner-status' } }),
      // Outside the upload block, hidden without a key: copying a link reports here too.
      element('div', { attrs: { id: 'upload-result', role: 'status', 'aria-live': 'polite' } }),
      element('p', { attrs: { id: 'page-error', role: 'alert' } }),
      element('div', { attrs: { id: 'drive-view', 'aria-busy': 'true' } }),
    ]),
  );
  const forget = document.getElementById('forget-key');
  if (forget) forget.hidden = true;
}
