// The cookie page: connect a NOSTR key, upload a cookie export, list and delete the owner's cookie files.
import type { CookieEntry, CookieUploadResponse } from '../../src/cookies/schemas.js';
import type { CookieScriptLabels } from '../labels/types.js';
import { looksLikeCookieFile } from './cookie/file-check.js';
import { renderList } from './cookie/list.js';
import { byId, element } from './lib/dom.js';
import { ApiError, failureText, fetchJson, sendWithProgress } from './lib/http.js';
import { multipartBody } from './lib/multipart.js';
import { nip98Authorization, stationUrl } from './lib/nip98.js';
import { startPage } from './lib/page.js';
import { signerProblem, wireSigner } from './lib/signer-block.js';
import { SignerError, type Signer } from './lib/signer.js';

const page = startPage<CookieScriptLabels>('cookie-app');
const { t, lang } = page;

const uploadForm = byId<HTMLFormElement>('upload-form');
const fileInput = byId<HTMLInputElement>('cookie-file');
const uploadButton = byId<HTMLButtonElement>('upload-button');
const progress = byId<HTMLProgressElement>('upload-progress');
const result = byId('upload-result');
const refreshButton = byId<HTMLButtonElement>('refresh-list');
const table = byId('cookie-table');
const rows = byId('cookie-rows');
const empty = byId('cookie-empty');

/** The fields of the cookie answer the page shows, when present. */
type UploadAnswer = Partial<
  Pick<CookieUploadResponse, 'message' | 'description' | 'file_path' | 'timestamp'>
>;

/** The station describes the file as `Domain: <domain>`; the page shows its own label beside the domain. */
function domainOf(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const domain = description.replace(/^Domain:\s*/i, '');
  return domain === 'unknown' ? t.unknownDomain : domain;
}

function showError(error: unknown): void {
  const problem = signerProblem(error, t);
  if (problem) page.error.show(problem);
  else page.error.failed(error);
}

const keys = wireSigner(t, { onChange: connected, onError: showError, onAttempt: page.error.clear });

function connected(next: Signer | null): void {
  uploadButton.disabled = next === null;
  refreshButton.disabled = next === null;
  if (next) void loadList();
  else {
    rows.replaceChildren();
    table.hidden = true;
    empty.hidden = true;
  }
}

async function authorized(
  path: string,
  method: string,
  payload?: string,
): Promise<{ url: string; authorization: string }> {
  const signer = keys.current();
  if (!signer) throw new SignerError('bad-key', 'No key');
  const url = stationUrl(path);
  return { url, authorization: await nip98Authorization(signer, url, method, payload) };
}

async function loadList(): Promise<void> {
  try {
    const { url, authorization } = await authorized('/cookie', 'GET');
    const list = await fetchJson<{ cookies: CookieEntry[]; count: number }>(url, {
      headers: { authorization },
    });
    renderList({ rows, table, empty }, list.cookies, { t, lang, onRemove: removeCookie });
  } catch (error) {
    showError(error);
  }
}

async function removeCookie(entry: CookieEntry): Promise<void> {
  page.error.clear();
  try {
    const { url, authorization } = await authorized(
      `/cookie/${encodeURIComponent(entry.domain ?? entry.file)}`,
      'DELETE',
    );
    await fetchJson(url, { method: 'DELETE', headers: { authorization } });
    result.replaceChildren(element('p', { text: `${t.removed}: ${entry.domain ?? entry.file}` }));
    await loadList();
  } catch (error) {
    showError(error);
  }
}

function renderAnswer(answer: UploadAnswer): void {
  const items: Array<[string, string | undefined]> = [
    [t.fields.message, answer.message],
    [t.fields.domain, domainOf(answer.description)],
    [t.fields.file, answer.file_path],
    [t.fields.time, answer.timestamp],
  ];
  const list = element('dl');
  for (const [label, value] of items) {
    if (typeof value !== 'string') continue;
    list.append(element('dt', { text: label }), element('dd', { text: value }));
  }
  result.replaceChildren(element('p', { text: t.uploaded, attrs: { 'data-outcome': 'success' } }), list);
}

/** Says why the file is refused and where other files go; the choice is cleared so it cannot be sent. */
function refuseNonCookie(): void {
  uploadForm.reset();
  const drive = element('a', { text: t.drivePage, attrs: { href: `/drive?lang=${lang}` } });
  result.replaceChildren(
    element('p', { text: t.notCookieFile, attrs: { 'data-outcome': 'NOT_A_COOKIE_FILE' } }),
    element('p', {}, [document.createTextNode(`${t.otherFiles} `), drive, document.createTextNode('.')]),
  );
}

async function upload(file: File): Promise<void> {
  const signer = keys.current();
  if (!signer) return;
  page.error.clear();
  if (!(await looksLikeCookieFile(file))) return refuseNonCookie();
  uploadButton.disabled = true;
  progress.value = 0;
  progress.hidden = false;
  result.replaceChildren(element('p', { text: t.uploading }));
  try {
    // cookie_only: should the station judge the file otherwise, it refuses it instead of filing it in the drive.
    const form = await multipartBody({ npub: signer.npub, cookie_only: 'true' }, file);
    const { url, authorization } = await authorized('/api/fileupload', 'POST', form.sha256);
    const answer = await sendWithProgress<UploadAnswer>(url, {
      method: 'POST',
      headers: { authorization, 'content-type': form.contentType, accept: 'application/json' },
      body: form.body,
      onProgress: (fraction) => (progress.value = Math.round(fraction * 100)),
    });
    progress.value = 100;
    renderAnswer(answer);
    uploadForm.reset();
    await loadList();
  } catch (error) {
    const code = error instanceof ApiError ? error.code : 'ERROR';
    result.replaceChildren(
      element('p', { text: failureText(t.failed, error), attrs: { 'data-outcome': code } }),
    );
  } finally {
    uploadButton.disabled = keys.current() === null;
  }
}

refreshButton.addEventListener('click', () => void loadList());

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (!file) return;
  result.replaceChildren();
  void looksLikeCookieFile(file).then((cookie) => {
    if (!cookie && fileInput.files?.[0] === file) refuseNonCookie();
  });
});

uploadForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const file = fileInput.files?.[0];
  if (!file) return showError(new Error(t.chooseFile));
  void upload(file);
});

page.ready();
