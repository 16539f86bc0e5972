// The geo-message page: sign a kind-1 note tagged with the UMAP position, publish it, list nearby notes.
import { npubEncode } from 'nostr-tools/nip19';
import type { NostrScriptLabels } from '../labels/types.js';
import { byId, element, formatLocal, shortKey } from './lib/dom.js';
import type { GeoMessage } from '../../src/view/schemas.js';
import { geoNote, MAX_MESSAGE_LENGTH, nearbyMessages } from './lib/geo-note.js';
import { startPage } from './lib/page.js';
import { wirePosition } from './lib/position-block.js';
import { umapCell, type LatLon } from './lib/position.js';
import { browserRelayUrl, publishEvent, RelayError } from './lib/relay-publish.js';
import { signerProblem, wireSigner } from './lib/signer-block.js';

const page = startPage<NostrScriptLabels>('nostr-app');
const { t, lang } = page;

const composeForm = byId<HTMLFormElement>('compose-form');
const message = byId<HTMLTextAreaElement>('message');
const relayInput = byId<HTMLInputElement>('relay-url');
const publishButton = byId<HTMLButtonElement>('publish-button');
const publishStatus = byId('publish-status');
const listStatus = byId('list-status');
const refreshButton = byId<HTMLButtonElement>('refresh-list');
const list = byId<HTMLOListElement>('geo-messages');

/** Polls of the station view after publishing: the note reaches it through the relay subscription. */
const INDEX_POLLS = 20;
const INDEX_POLL_MS = 500;

/** The position given, on the UMAP grid; set by the position block. */
let here: LatLon | null = null;
let listTimer: number | undefined;
relayInput.value = browserRelayUrl(relayInput.dataset.configured ?? '');

function showError(error: unknown): void {
  const problem = signerProblem(error, t);
  if (problem) page.error.show(problem);
  else if (error instanceof RelayError) {
    page.error.show(
      error.reason === 'bad-url'
        ? t.badRelay
        : `${error.reason === 'unreachable' ? t.relayUnreachable : t.relayRejected} ${error.message}`,
    );
  } else page.error.failed(error);
}

const keys = wireSigner(t, { onChange: refreshControls, onError: showError, onAttempt: page.error.clear });

function refreshControls(): void {
  publishButton.disabled = keys.current() === null || here === null;
  refreshButton.disabled = here === null;
}

function messageItem(note: GeoMessage): HTMLLIElement {
  const cell = umapCell(note.umap);
  return element('li', { className: 'message', attrs: { 'data-id': note.id } }, [
    element('p', { className: 'muted' }, [
      element('time', { text: formatLocal(new Date(note.created_at * 1000).toISOString(), lang) }),
      document.createTextNode(' · '),
      element('span', { className: 'mono', text: shortKey(npubEncode(note.pubkey)) }),
      document.createTextNode(' · '),
      element('span', { text: `UMAP ${cell.lat}, ${cell.lon}` }),
    ]),
    element('p', { className: 'content', text: note.content }),
  ]);
}

async function loadMessages(at: LatLon): Promise<GeoMessage[]> {
  listStatus.textContent = t.loading;
  try {
    const notes = await nearbyMessages(at);
    list.replaceChildren(...notes.map(messageItem));
    const cell = umapCell(at);
    listStatus.textContent = notes.length ? `${t.around} ${cell.lat}, ${cell.lon}` : t.empty;
    return notes;
  } catch (error) {
    listStatus.textContent = '';
    showError(error);
    return [];
  }
}

async function waitUntilListed(id: string, at: LatLon): Promise<boolean> {
  for (let poll = 0; poll < INDEX_POLLS; poll++) {
    if ((await loadMessages(at)).some((note) => note.id === id)) return true;
    await new Promise((resolve) => setTimeout(resolve, INDEX_POLL_MS));
  }
  return false;
}

async function publish(): Promise<void> {
  page.error.clear();
  const signer = keys.current();
  const at = here;
  const content = message.value.trim();
  if (!signer) return showError(new Error(t.needKey));
  if (!at) return showError(new Error(t.needPosition));
  if (!content) return showError(new Error(t.emptyMessage));
  publishButton.disabled = true;
  publishStatus.textContent = t.publishing;
  try {
    const event = await signer.sign(geoNote(content.slice(0, MAX_MESSAGE_LENGTH), at));
    await publishEvent(relayInput.value.trim(), event, signer);
    message.value = '';
    publishStatus.textContent = t.published;
    publishStatus.dataset.eventId = event.id;
    if (!(await waitUntilListed(event.id, at))) publishStatus.textContent = t.notIndexed;
  } catch (error) {
    publishStatus.textContent = '';
    showError(error);
  } finally {
    refreshControls();
  }
}

wirePosition(t.position, (at) => {
  here = at;
  refreshControls();
  // Typing "43.6" then "43.61" is two positions: read the list once the typing pauses.
  window.clearTimeout(listTimer);
  if (at) listTimer = window.setTimeout(() => void loadMessages(at), 300);
  else {
    list.replaceChildren();
    listStatus.textContent = '';
  }
});
refreshControls();

refreshButton.addEventListener('click', () => {
  if (here) void loadMessages(here);
});
composeForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void publish();
});

page.ready();
