// The scan page: e-mail registration with a zero balance, and a multi-scan of QR codes (camera or pictures).
import type { ScanScriptLabels } from '../labels/types.js';
import { CameraError, CameraScanner } from './lib/camera.js';
import { byId, element } from './lib/dom.js';
import { showIdentity } from './lib/identity-card.js';
import { startPage } from './lib/page.js';
import { decodeImageFile } from './lib/qr-scan.js';
import { recognise, type Recognised } from './lib/recognise.js';
import { register } from './lib/registration.js';

const page = startPage<ScanScriptLabels>('scan-app');
const { t, lang } = page;

const registerForm = byId<HTMLFormElement>('register-form');
const email = byId<HTMLInputElement>('email');
const registerButton = byId<HTMLButtonElement>('register-button');
const registerStatus = byId('register-status');
const identity = byId('identity');
const cameraStart = byId<HTMLButtonElement>('camera-start');
const cameraStop = byId<HTMLButtonElement>('camera-stop');
const files = byId<HTMLInputElement>('qr-files');
const scanStatus = byId('scan-status');
const results = byId<HTMLOListElement>('scan-results');
const count = byId('scan-count');
const empty = byId('scan-empty');
const clear = byId<HTMLButtonElement>('scan-clear');

/** Everything recognised so far, by scanned text: a code seen twice is listed once. */
const seen = new Map<string, Recognised>();

function link(text: string, href: string, external = false): HTMLAnchorElement {
  const attrs: Record<string, string> = { href };
  if (external) Object.assign(attrs, { target: '_blank', rel: 'noopener noreferrer' });
  return element('a', { text, attrs });
}

function linksOf(item: Recognised): HTMLAnchorElement[] {
  const links: HTMLAnchorElement[] = [];
  if (item.npub) {
    links.push(link(t.links.checkKey, `/api/test-nostr?npub=${encodeURIComponent(item.npub)}`));
    links.push(link(t.links.profile, `/api/view/profile/${encodeURIComponent(item.npub)}`));
  }
  const balanceKey = item.g1Address ?? (item.kind === 'email' ? item.display : undefined);
  if (balanceKey)
    links.push(link(t.links.balance, `/check_balance?g1pub=${encodeURIComponent(balanceKey)}&html=1`));
  if (item.url) links.push(link(t.links.open, item.url, item.kind !== 'station-link'));
  return links;
}

function entry(item: Recognised): HTMLLIElement {
  const li = element(
    'li',
    { className: item.secret ? 'scan secret' : 'scan', attrs: { 'data-kind': item.kind } },
    [
      element('strong', { text: t.kinds[item.kind] }),
      element('div', { className: 'mono', text: item.display }),
    ],
  );
  if (item.secret) li.append(element('p', { className: 'warning', text: t.secretWarning }));
  if (item.kind === 'nsec' && item.npub) {
    li.append(
      element('p', { className: 'muted' }, [
        document.createTextNode(`${t.publicKeyOf} `),
        element('span', { className: 'mono', text: item.npub }),
      ]),
    );
  }
  if (item.kind === 'g1-v1' && item.g1Address) {
    li.append(
      element('p', { className: 'muted' }, [
        document.createTextNode(`${t.wallet} `),
        element('span', { className: 'mono', text: item.g1Address }),
      ]),
    );
  }
  if (item.relays?.length)
    li.append(element('p', { className: 'muted mono', text: `${t.relays} ${item.relays.join(' ')}` }));
  const links = linksOf(item);
  if (links.length) li.append(element('p', { className: 'links' }, links));
  return li;
}

function refreshCount(): void {
  count.textContent = seen.size ? `(${seen.size})` : '';
  empty.hidden = seen.size > 0;
  clear.hidden = seen.size === 0;
}

/** Codes read, repeats included (the camera sees a card many times); shown to tests as `data-reads`. */
let reads = 0;

function add(text: string): void {
  results.dataset.reads = String(++reads);
  const item = recognise(text, window.location.origin);
  if (seen.has(item.raw)) return;
  seen.set(item.raw, item);
  results.append(entry(item));
  refreshCount();
}

async function readFiles(list: File[]): Promise<void> {
  page.error.clear();
  scanStatus.textContent = t.reading;
  const notes: string[] = [];
  for (const file of list) {
    try {
      const codes = await decodeImageFile(file);
      if (codes.length === 0) notes.push(`${t.noCode} ${file.name}`);
      codes.forEach(add);
    } catch {
      notes.push(`${t.unreadable} ${file.name}`);
    }
  }
  scanStatus.textContent = notes.join(' · ');
}

const camera = new CameraScanner(byId<HTMLVideoElement>('camera'), add);

function cameraShown(on: boolean): void {
  cameraStart.hidden = on;
  cameraStop.hidden = !on;
}

cameraStart.addEventListener('click', () => {
  page.error.clear();
  cameraStart.disabled = true;
  camera
    .start()
    .then(
      () => {
        cameraShown(true);
        scanStatus.textContent = t.cameraOn;
      },
      (error: unknown) =>
        page.error.show(
          error instanceof CameraError ? t.cameraProblems[error.problem] : t.cameraProblems.failed,
        ),
    )
    .finally(() => (cameraStart.disabled = false));
});

cameraStop.addEventListener('click', () => {
  camera.stop();
  cameraShown(false);
  scanStatus.textContent = '';
});

files.addEventListener('change', () => {
  const chosen = Array.from(files.files ?? []);
  if (chosen.length) void readFiles(chosen).finally(() => (files.value = ''));
});

clear.addEventListener('click', () => {
  seen.clear();
  results.replaceChildren();
  refreshCount();
});

registerForm.addEventListener('submit', (event) => {
  event.preventDefault();
  page.error.clear();
  if (!email.validity.valid || email.value.trim() === '') return page.error.show(t.badEmail);
  registerButton.disabled = true;
  registerStatus.textContent = t.registering;
  register({ email: email.value, lang })
    .then(async (created) => {
      email.value = '';
      registerStatus.textContent = '';
      await showIdentity(identity, created, t.keys);
    })
    .catch((error: unknown) => {
      registerStatus.textContent = '';
      page.error.failed(error);
    })
    .finally(() => (registerButton.disabled = false));
});

window.addEventListener('pagehide', () => camera.stop());
refreshCount();
page.ready();
