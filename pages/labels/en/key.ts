import type { key as french } from '../fr/key.js';

export const key: typeof french = {
  page: {
    keyTitle: '1. Your NOSTR key',
    useExtension: 'Use my NOSTR extension (NIP-07)',
    nsecLabel: 'Or type your secret key (nsec1…)',
    nsecHint: 'It stays in this page’s memory: it is neither sent nor stored.',
    useNsec: 'Use this key',
    forget: 'Forget the key',
  },
  js: {
    connectedAs: 'Connected as',
    notConnected: 'No key connected.',
    noExtension: 'No NOSTR extension found in this browser.',
    badNsec: 'This is not a valid nsec1… secret key.',
    extensionRefused: 'The extension refused the request.',
  },
};
