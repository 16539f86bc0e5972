export const keys = {
  title: 'Vos clés',
  warning:
    'Enregistrez ces clés maintenant : elles ne seront plus jamais affichées. La clé secrète (nsec) donne le contrôle total de votre identité ; le sel et le poivre permettent de recréer vos clés et votre portefeuille Ğ1. Ne les partagez avec personne.',
  secretTag: 'secret',
  fields: {
    email: 'E-mail',
    npub: 'Clé publique NOSTR (npub)',
    hex: 'Clé publique (hex)',
    g1pub: 'Portefeuille Ğ1 (g1…)',
    g1pubV1: 'Portefeuille Ğ1 (clé v1)',
    nsec: 'Clé secrète NOSTR (nsec)',
    salt: 'Sel',
    pepper: 'Poivre',
  },
  qrLabel: 'QR code de votre clé publique npub',
  download: 'Télécharger mes clés (fichier texte)',
  hide: 'C’est enregistré : masquer les clés',
  hidden: 'Clés masquées. Elles ne sont plus affichées sur cette station.',
  balance: 'Voir mon solde (0 Ẑen au départ)',
  nextSteps: 'Ensuite :',
  cookiePage: 'envoyer mes cookies',
  geoPage: 'publier un géo-message',
};
