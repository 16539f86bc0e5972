import type { keys as french } from '../fr/keys.js';

export const keys: typeof french = {
  title: 'Your keys',
  warning:
    'Save these keys now: they will never be shown again. The secret key (nsec) gives full control of your identity; the salt and pepper recreate your keys and your Ğ1 wallet. Share them with no one.',
  secretTag: 'secret',
  fields: {
    email: 'E-mail',
    npub: 'NOSTR public key (npub)',
    hex: 'Public key (hex)',
    g1pub: 'Ğ1 wallet (g1…)',
    g1pubV1: 'Ğ1 wallet (v1 key)',
    nsec: 'NOSTR secret key (nsec)',
    salt: 'Salt',
    pepper: 'Pepper',
  },
  qrLabel: 'QR code of your npub public key',
  download: 'Download my keys (text file)',
  hide: 'Saved: hide the keys',
  hidden: 'Keys hidden. This station will not show them again.',
  balance: 'See my balance (0 Ẑen to start with)',
  nextSteps: 'Next:',
  cookiePage: 'upload my cookies',
  geoPage: 'publish a geo-message',
};
