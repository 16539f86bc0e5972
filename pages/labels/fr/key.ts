export const key = {
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
