// The drive's interactive part, shared by the /drive page and the published explorer: both lay out the
// same element ids (pages/views/drive.eta, pages/explorer/skeleton.ts) and differ only by their DriveSource.
import type { PublishedFile } from '../../../src/drive/listing-schema.js';
import type { DriveScriptLabels } from '../../labels/types.js';
import { byId, element } from '../lib/dom.js';
import { ApiError, failureText } from '../lib/http.js';
import type { Signer } from '../lib/signer.js';
import { copyToMyDrive, deleteFile, uploadFile } from './actions.js';
import { renderDrive, type FileLinks } from './view.js';

/** Where the drive comes from and what a change leads to. */
export interface DriveSource {
  /** The station API's base URL, no trailing slash. */
  api(): string;
  links(): FileLinks;
  /** The station answered a change with `newCid`, the signer's drive root: show that drive now. */
  follow(newCid: string): Promise<void>;
}

export interface ShownDrive {
  owner_hex_pubkey: string;
  files: PublishedFile[];
}

export interface DriveController {
  /** Renders a drive, with the actions the current signer may take on it. */
  show(drive: ShownDrive | null): void;
  /** Call when the signer changes: actions and ownership follow. */
  refresh(): void;
}

export function wireDrive(options: {
  t: DriveScriptLabels;
  lang: string;
  signer: () => Signer | null;
  source: DriveSource;
}): DriveController {
  const { t, lang, signer, source } = options;
  const form = byId<HTMLFormElement>('upload-form');
  const fileInput = byId<HTMLInputElement>('drive-file');
  const uploadButton = byId<HTMLButtonElement>('upload-button');
  const progress = byId<HTMLProgressElement>('upload-progress');
  const result = byId('upload-result');
  const view = byId('drive-view');
  const ownerStatus = byId('owner-status');
  let shown: ShownDrive | null = null;

  const say = (text: string, outcome: string) =>
    result.replaceChildren(element('p', { text, attrs: { 'data-outcome': outcome } }));
  const failed = (error: unknown) =>
    say(failureText(t.failed, error), error instanceof ApiError ? error.code : 'ERROR');

  /** Runs a signed change, then follows the root the station answered with. */
  async function change(work: (key: Signer) => Promise<{ new_cid: string }>, done: string): Promise<void> {
    const key = signer();
    if (!key) return;
    try {
      const answer = await work(key);
      say(done, 'success');
      await source.follow(answer.new_cid);
    } catch (error) {
      failed(error);
    }
  }

  function share(_file: PublishedFile, url: string): void {
    // Clipboard needs a secure context; elsewhere the link is shown to copy by hand.
    const written = navigator.clipboard?.writeText(url) ?? Promise.reject(new Error('no clipboard'));
    written.then(
      () => say(`${t.copied}: ${url}`, 'copied'),
      () => say(url, 'link'),
    );
  }

  function show(drive: ShownDrive | null): void {
    shown = drive;
    const key = signer();
    uploadButton.disabled = key === null;
    if (!drive) {
      view.replaceChildren();
      ownerStatus.textContent = '';
      return;
    }
    const owner = key !== null && key.pubkey === drive.owner_hex_pubkey;
    ownerStatus.textContent = key === null ? '' : owner ? t.owner : t.notOwner;
    renderDrive(view, drive.files, {
      t,
      lang,
      links: source.links(),
      onShare: share,
      onRemove: owner
        ? (file) => change((k) => deleteFile(source.api(), k, file.path), `${t.deleted}: ${file.path}`)
        : undefined,
      onCopy:
        key && !owner
          ? (file) => change((k) => copyToMyDrive(source.api(), k, file.ipfs_link), t.copiedToMine)
          : undefined,
    });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const file = fileInput.files?.[0];
    if (!file) return say(t.chooseFile, 'ERROR');
    uploadButton.disabled = true;
    progress.value = 0;
    progress.hidden = false;
    say(t.uploading, 'uploading');
    void change(async (key) => {
      const answer = await uploadFile(source.api(), key, file, (fraction) => {
        progress.value = Math.round(fraction * 100);
      });
      progress.value = 100;
      form.reset();
      return answer;
    }, `${t.uploaded}: ${file.name}`).finally(() => (uploadButton.disabled = signer() === null));
  });

  return { show, refresh: () => show(shown) };
}
