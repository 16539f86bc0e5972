/**
 * Ğ1 amounts travel as integer cents (the indexer's unit) and are only turned into decimal numbers at the
 * edge, so sums never accumulate floating-point error.
 */

/** Ğ1 held back on every account as its existential deposit: it cannot be spent, so it is worth no Ẑen. */
const EXISTENTIAL_DEPOSIT_CENTS = 100;

/** Cents → Ğ1 with two decimals. */
export function centsToG1(cents: number): number {
  return cents / 100;
}

/** A transfer's value in Ẑen: 1 Ẑen = 0.1 Ğ1, so Ẑen = Ğ1 × 10 = cents / 10. */
export function transferZen(cents: number): number {
  return Math.round(cents * 10) / 100;
}

/** An account balance in Ẑen: (Ğ1 − 1) × 10, never below zero (docs/api-contract.md §10). */
export function balanceZen(cents: number): number {
  return transferZen(Math.max(0, cents - EXISTENTIAL_DEPOSIT_CENTS));
}

/** `12.34 Ğ1`, the legacy text form of a balance. */
export function formatG1(cents: number): string {
  return `${centsToG1(cents).toFixed(2)} Ğ1`;
}

/** Two-decimal text for pages. */
export function twoDecimals(value: number): string {
  return value.toFixed(2);
}
