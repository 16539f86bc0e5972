// The drive page: connect a NOSTR key, then list, preview, upload and delete that key's drive files.
import type { DriveListing } from '../../src/drive/listing-schema.js';
import type { DriveScriptLabels } from '../labels/types.js';
import { wireDrive } from './drive/controller.js';
import { safeFiles } from './drive/entries.js';
import type { FileLinks } from './drive/view.js';
import { byId } from './lib/dom.js';
import { ApiError, fetchJson } from './lib/http.js';
import { startPage } from './lib/page.js';
import { signerProblem, wireSigner } from './lib/signer-block.js';
import type { Signer } from './lib/signer.js';

const page = startPage<DriveScriptLabels>('drive-app');
const { t, lang } = page;

const refreshButton = byId<HTMLButtonElement>('refresh-drive');
const explorerLink = byId<HTMLAnchorElement>('open-explorer');
const rootLine = byId('drive-root');
let listing: DriveListing | null = null;

const encodeLink = (link: string) => link.split('/').map(encodeURIComponent).join('/');

/** Files are read from the station's gateway (allowed by the page's img-src/media-src), by their stable link. */
const links: FileLinks = {
  view: (file) => `${listing?.my_ipfs_gateway ?? ''}/ipfs/${encodeLink(file.ipfs_link)}`,
  download: (file) => `${links.view(file)}?download=true&filename=${encodeURIComponent(file.name)}`,
  share: (file) => links.view(file),
};

function showError(error: unknown): void {
  const problem = signerProblem(error, t);
  if (problem) page.error.show(problem);
  else page.error.failed(error);
}

const keys = wireSigner(t, { onChange: connected, onError: showError, onAttempt: page.error.clear });

const drive = wireDrive({
  t,
  lang,
  signer: () => keys.current(),
  // The page shows the signer's own drive: after a change it reads it again rather than following a CID.
  source: { api: () => window.location.origin, links: () => links, follow: () => load() },
});

function clear(): void {
  listing = null;
  drive.show(null);
  explorerLink.hidden = true;
  rootLine.textContent = '';
}

async function load(): Promise<void> {
  const signer = keys.current();
  if (!signer) return;
  page.error.clear();
  try {
    listing = await fetchJson<DriveListing>(`/api/drive?npub=${encodeURIComponent(signer.npub)}`);
    rootLine.textContent = listing.root_cid ?? '';
    explorerLink.hidden = listing.explorer_url === null;
    if (listing.explorer_url) explorerLink.href = listing.explorer_url;
    drive.show({ owner_hex_pubkey: listing.owner_hex_pubkey, files: safeFiles(listing) });
  } catch (error) {
    clear();
    if (error instanceof ApiError && error.code === 'UNKNOWN_USER') page.error.show(t.notRegistered);
    else page.error.failed(error);
  }
}

function connected(signer: Signer | null): void {
  refreshButton.disabled = signer === null;
  if (signer) void load();
  else clear();
}

refreshButton.addEventListener('click', () => void load());

page.ready();
