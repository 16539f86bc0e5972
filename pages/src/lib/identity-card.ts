import { element } from './dom.js';
import { qrCanvas } from './qr-code.js';
import type { NewIdentity } from './registration.js';
import type { KeysLabels } from '../../labels/types.js';

function savedText(identity: NewIdentity): string {
  return [
    `EMAIL=${identity.email}`,
    `NPUB=${identity.npub}`,
    `HEX=${identity.hex}`,
    `G1PUB=${identity.g1pub}`,
    `G1PUB_V1=${identity.g1pub_v1}`,
    `NSEC=${identity.nsec}`,
    `SALT=${identity.salt}`,
    `PEPPER=${identity.pepper}`,
    '',
  ].join('\n');
}

function row(label: string, value: string, secret = false, tag = ''): Node[] {
  const dd = element('dd', { className: secret ? 'mono secret' : 'mono', text: value });
  const dt = element('dt', { text: label });
  if (secret) dt.append(' ', element('span', { className: 'tag-secret', text: tag }));
  return [dt, dd];
}

/**
 * Shows a new identity's keys once: the station keeps the secret in the user directory but never shows it
 * again, so the card warns, offers a text file to keep, and can be cleared from the page. `extra` goes
 * between the keys and the links (e.g. the UMAP cell).
 */
export async function showIdentity(
  container: HTMLElement,
  identity: NewIdentity,
  t: KeysLabels,
  extra: Node[] = [],
): Promise<void> {
  const f = t.fields;
  const keys = element('dl', { className: 'keys' }, [
    ...row(f.email, identity.email),
    ...row(f.npub, identity.npub),
    ...row(f.hex, identity.hex),
    ...row(f.g1pub, identity.g1pub),
    ...row(f.g1pubV1, identity.g1pub_v1),
    ...row(f.nsec, identity.nsec, true, t.secretTag),
    ...row(f.salt, identity.salt, true, t.secretTag),
    ...row(f.pepper, identity.pepper, true, t.secretTag),
  ]);
  const fileUrl = URL.createObjectURL(new Blob([savedText(identity)], { type: 'text/plain' }));
  const download = element('a', {
    className: 'button',
    text: t.download,
    attrs: { href: fileUrl, download: `uplanet-${identity.email.replace(/[^a-z0-9._-]/gi, '_')}.txt` },
  });
  const hide = element('button', { text: t.hide, attrs: { type: 'button', 'data-action': 'hide-keys' } });
  const balance = element('a', {
    text: t.balance,
    attrs: { href: `/check_balance?g1pub=${encodeURIComponent(identity.g1pub)}&html=1` },
  });
  const card = element('div', { className: 'identity', attrs: { 'data-npub': identity.npub } }, [
    element('h2', { text: t.title }),
    element('p', { className: 'warning', text: t.warning, attrs: { role: 'alert' } }),
    element('div', { className: 'identity-grid' }, [keys, await qrCanvas(identity.npub, t.qrLabel)]),
    ...extra,
    element('div', { className: 'filters' }, [download, hide]),
    element('p', {}, [balance]),
    element('p', { className: 'muted' }, [
      document.createTextNode(`${t.nextSteps} `),
      element('a', { text: t.cookiePage, attrs: { href: '/cookie' } }),
      document.createTextNode(' · '),
      element('a', { text: t.geoPage, attrs: { href: '/nostr' } }),
    ]),
  ]);
  hide.addEventListener('click', () => {
    URL.revokeObjectURL(fileUrl);
    container.replaceChildren(element('p', { className: 'muted', text: t.hidden }));
  });
  container.replaceChildren(card);
}
