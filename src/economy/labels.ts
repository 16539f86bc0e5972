import type { Language } from '../http/views.js';
import type { PartType } from './society.js';

const fr = {
  balanceTitle: 'Solde Ğ1 et Ẑen',
  balance: 'Solde',
  address: 'Adresse (SS58)',
  key: 'Clé ou e-mail',
  check: 'Consulter',
  keyHint: 'Clé publique Ğ1 (v1 ou g1…) ou e-mail d’un membre de la station',
  zenNote: 'Ẑen = (Ğ1 − 1) × 10 : le premier Ğ1 reste sur le compte.',
  societyTitle: 'Capital social',
  totalCapital: 'Capital distribué',
  shares: 'Parts',
  members: 'Sociétaires',
  member: 'Sociétaire',
  type: 'Type',
  total: 'Total',
  latest: 'Dernière part',
  membershipEnd: 'Fin d’adhésion',
  node: 'Nœud',
  history: 'Historique complet',
  date: 'Date',
  amount: 'Montant',
  comment: 'Commentaire',
  none: 'Aucune opération pour le moment.',
  revenueTitle: 'Chiffre d’affaires',
  transactions: 'Transactions',
  allYears: 'Toutes les années',
  year: 'Année',
  yearly: 'Résumé annuel',
  sales: 'Ventes détaillées',
  client: 'Client',
  wallet: 'Portefeuille',
  updated: 'Mis à jour',
  types: {
    constellation: 'Constellation (3 ans, avec IA)',
    satellite: 'Satellite (1 an, sans IA)',
    parts: 'Parts sociales (ancien format)',
    other: 'Autre',
  } satisfies Record<PartType, string>,
};

const en: typeof fr = {
  balanceTitle: 'Ğ1 and Ẑen balance',
  balance: 'Balance',
  address: 'Address (SS58)',
  key: 'Key or e-mail',
  check: 'Check',
  keyHint: 'Ğ1 public key (v1 or g1…) or the e-mail of a station member',
  zenNote: 'Ẑen = (Ğ1 − 1) × 10: the first Ğ1 stays on the account.',
  societyTitle: 'Social capital',
  totalCapital: 'Capital distributed',
  shares: 'Shares',
  members: 'Members',
  member: 'Member',
  type: 'Type',
  total: 'Total',
  latest: 'Latest share',
  membershipEnd: 'Membership ends',
  node: 'Node',
  history: 'Full history',
  date: 'Date',
  amount: 'Amount',
  comment: 'Comment',
  none: 'No operation yet.',
  revenueTitle: 'Sales revenue',
  transactions: 'Transactions',
  allYears: 'All years',
  year: 'Year',
  yearly: 'Annual summary',
  sales: 'Sales in detail',
  client: 'Customer',
  wallet: 'Wallet',
  updated: 'Updated',
  types: {
    constellation: 'Constellation (3 years, with AI)',
    satellite: 'Satellite (1 year, no AI)',
    parts: 'Legacy shares',
    other: 'Other',
  },
};

export type EconomyLabels = typeof fr;

export const PART_ICONS: Record<PartType, string> = {
  constellation: '🌌',
  satellite: '🛰️',
  parts: '📜',
  other: '❔',
};

export function economyLabels(lang: Language): EconomyLabels {
  return lang === 'fr' ? fr : en;
}
