// The registration page: identity with optional Ğ1 salt/pepper and a position; shows the keys and the UMAP cell.
import type { G1ScriptLabels } from '../labels/types.js';
import { byId, element } from './lib/dom.js';
import { showIdentity } from './lib/identity-card.js';
import { startPage } from './lib/page.js';
import { wirePosition } from './lib/position-block.js';
import { umapCell } from './lib/position.js';
import { register, type NewIdentity } from './lib/registration.js';

const page = startPage<G1ScriptLabels>('g1-app');
const { t, lang } = page;

const form = byId<HTMLFormElement>('g1-form');
const email = byId<HTMLInputElement>('email');
const salt = byId<HTMLInputElement>('salt');
const pepper = byId<HTMLInputElement>('pepper');
const button = byId<HTMLButtonElement>('register-button');
const status = byId('register-status');
const identity = byId('identity');

const position = wirePosition(t.position, page.error.clear);
const CREDENTIAL = /^[\x21-\x7e]{1,128}$/;

/** The checks the station makes too, done first so the person gets the sentence without a round trip. */
function problem(): string | null {
  if (!email.validity.valid || email.value.trim() === '') return t.badEmail;
  const hasSalt = salt.value !== '';
  const hasPepper = pepper.value !== '';
  if (hasSalt !== hasPepper) return t.bothOrNeither;
  if (hasSalt && !(CREDENTIAL.test(salt.value) && CREDENTIAL.test(pepper.value))) return t.badCredential;
  if (position.invalid()) return t.position.badPosition;
  return null;
}

function cellBlock(created: NewIdentity): Node[] {
  if (created.lat === null || created.lon === null)
    return [element('p', { className: 'muted', text: t.noCell })];
  const cell = umapCell({ lat: created.lat, lon: created.lon });
  const p = t.position;
  return [
    element('h3', { text: t.cellTitle }),
    element('dl', { className: 'cell', attrs: { 'data-umap': `${cell.lat},${cell.lon}` } }, [
      element('dt', { text: p.umap }),
      element('dd', { className: 'mono', text: `${cell.lat}, ${cell.lon}` }),
      element('dt', { text: p.sector }),
      element('dd', { className: 'mono', text: cell.sector }),
      element('dt', { text: p.region }),
      element('dd', { className: 'mono', text: cell.region }),
    ]),
  ];
}

async function submit(): Promise<void> {
  page.error.clear();
  const refused = problem();
  if (refused) return page.error.show(refused);
  button.disabled = true;
  status.textContent = t.registering;
  const point = position.current();
  try {
    const created = await register({
      email: email.value,
      lang,
      lat: point?.lat ?? null,
      lon: point?.lon ?? null,
      salt: salt.value || undefined,
      pepper: pepper.value || undefined,
    });
    // The credentials are in the keys card now; the form must not keep a second copy.
    for (const input of [email, salt, pepper]) input.value = '';
    status.textContent = '';
    await showIdentity(identity, created, t.keys, cellBlock(created));
    identity.scrollIntoView({ behavior: 'smooth', block: 'start' });
  } catch (error) {
    status.textContent = '';
    page.error.failed(error);
  } finally {
    button.disabled = false;
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void submit();
});

page.ready();
