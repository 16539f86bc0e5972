import type { Language } from './language.js';

/** Texts of the NOSTR key block shared by the cookie and geo-message pages (`partials/key.eta`). */
export interface KeyLabels {
  keyTitle: string;
  useExtension: string;
  nsecLabel: string;
  nsecHint: string;
  useNsec: string;
  forget: string;
}

/** What the key block's module (`pages/src/lib/signer-block.ts`) shows at run time. */
export interface KeyScriptLabels {
  connectedAs: string;
  notConnected: string;
  noExtension: string;
  badNsec: string;
  extensionRefused: string;
}

const fr: { page: KeyLabels; js: KeyScriptLabels } = {
  page: {
    keyTitle: '1. Votre clé NOSTR',
    useExtension: 'Utiliser mon extension NOSTR (NIP-07)',
    nsecLabel: 'Ou tapez votre clé secrète (nsec1…)',
    nsecHint: 'Elle reste dans la mémoire de cette page : elle n’est ni envoyée ni enregistrée.',
    useNsec: 'Utiliser cette clé',
    forget: 'Oublier la clé',
  },
  js: {
    connectedAs: 'Connecté en tant que',
    notConnected: 'Aucune clé connectée.',
    noExtension: 'Aucune extension NOSTR détectée dans ce navigateur.',
    badNsec: 'Ce n’est pas une clé secrète nsec1… valide.',
    extensionRefused: 'L’extension a refusé la demande.',
  },
};

const en: typeof fr = {
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

export function keyLabels(lang: Language): KeyLabels {
  return (lang === 'fr' ? fr : en).page;
}

export function keyScriptLabels(lang: Language): KeyScriptLabels {
  return (lang === 'fr' ? fr : en).js;
}
