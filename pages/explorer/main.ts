// The drive explorer published as `_index.html` in every drive root: the same bytes everywhere, it reads
// the `manifest.json` next to it. Runs from any gateway; writes go to the station API the manifest names.
import type { PublishedManifest } from '../../src/drive/listing-schema.js';
import { drive as englishDrive } from '../labels/en/drive.js';
import { drive as frenchDrive } from '../labels/fr/drive.js';
import { wireDrive } from '../src/drive/controller.js';
import { safeFiles } from '../src/drive/entries.js';
import type { FileLinks } from '../src/drive/view.js';
import { byId } from '../src/lib/dom.js';
import { errorText, failureText } from '../src/lib/http.js';
import { signerProblem, wireSigner } from '../src/lib/signer-block.js';
import { buildSkeleton } from './skeleton.js';
import { apiBase, where, type Where } from './where.js';

const lang = navigator.language.toLowerCase().startsWith('fr') ? 'fr' : 'en';
document.documentElement.lang = lang;
// Only the drive's texts, not the whole catalogues: this file is copied into every published drive.
const labels = lang === 'fr' ? frenchDrive : englishDrive;
const t = labels.js;
const app = byId('explorer');
buildSkeleton(app, labels);
const errorLine = byId('page-error');
const rootLine = byId('drive-root');
const view = byId('drive-view');
const uploadSection = byId('upload-section');

let here: Where = where(window.location.href);
let manifest: PublishedManifest | null = null;

const encodeLink = (link: string) => link.split('/').map(encodeURIComponent).join('/');

/** Files are read next to the explorer; the link handed out is the file's stable `<cid>/<name>`. */
const links: FileLinks = {
  view: (file) => new URL(`${file.category}/${encodeURIComponent(file.name)}`, here.base).href,
  download: (file) => `${links.view(file)}?download=true&filename=${encodeURIComponent(file.name)}`,
  share: (file) =>
    `${here.gatewayBase ?? manifest?.my_ipfs_gateway ?? ''}/ipfs/${encodeLink(file.ipfs_link)}`,
};

function api(): string {
  const base = manifest ? apiBase(manifest.api_url, new URL(window.location.href)) : null;
  if (!base) throw new Error(t.noManifest);
  return base;
}

async function load(): Promise<void> {
  rootLine.textContent = here.root ?? '';
  view.setAttribute('aria-busy', 'true');
  errorLine.textContent = '';
  try {
    const response = await fetch(new URL('manifest.json', here.base));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const data = (await response.json()) as PublishedManifest | null;
    if (typeof data?.owner_hex_pubkey !== 'string' || typeof data.api_url !== 'string')
      throw new Error('manifest.json');
    manifest = data;
    drive.show({ owner_hex_pubkey: data.owner_hex_pubkey, files: safeFiles(data) });
  } catch (error) {
    manifest = null;
    drive.show(null);
    errorLine.textContent = `${t.noManifest} (${errorText(error)})`;
  } finally {
    view.setAttribute('aria-busy', 'false');
    app.dataset.root = here.root ?? '';
    app.dataset.ready = 'true';
  }
}

/**
 * After a change, the station answers with the signer's new root (uDRIVE's `redirectToNewCid`). On the same
 * gateway the page stays and shows it, so a typed key stays in memory; elsewhere the browser goes there.
 */
async function follow(newCid: string): Promise<void> {
  const target =
    here.explorerOf(newCid) ?? (manifest ? `${manifest.my_ipfs_gateway}/ipfs/${newCid}/_index.html` : null);
  if (!target) return;
  const next = new URL(target, window.location.href);
  if (next.origin !== window.location.origin) return window.location.assign(next.href);
  window.history.pushState(null, '', next.href);
  here = where(next.href);
  await load();
}

window.addEventListener('popstate', () => {
  here = where(window.location.href);
  void load();
});

const keys = wireSigner(t, {
  onChange: (signer) => {
    uploadSection.hidden = signer === null;
    drive.refresh();
  },
  onError: (error) => (errorLine.textContent = signerProblem(error, t) ?? failureText(t.failed, error)),
  onAttempt: () => (errorLine.textContent = ''),
});

const drive = wireDrive({
  t,
  lang,
  signer: () => keys.current(),
  source: { api, links: () => links, follow },
});

void load();
