/**
 * What a reaction is worth (docs/api-contract.md §9). Amounts are whole Ẑen; on chain they travel as Ğ1 cents
 * (1 Ẑen = 0.1 Ğ1 = 10 cents), so no floating-point value is ever summed or compared.
 */

/** Largest `+N` a single reaction may carry: a typo must not empty a wallet. */
export const MAX_LIKE_ZEN = 1000;

export const CENTS_PER_ZEN = 10;

/** Contents that mean "like", compared after removing presentation marks (see `normalise`). */
const LIKES = new Set(['', '+', '👍', '❤', '♥']);

/**
 * Variation selectors (text vs emoji presentation) and skin-tone modifiers change how a glyph looks, not
 * what it says: "❤️" and "❤" are the same heart, "👍🏽" the same thumbs-up.
 */
function normalise(content: string): string {
  return content.trim().replace(/[\uFE0E\uFE0F]|\u{1F3FB}|\u{1F3FC}|\u{1F3FD}|\u{1F3FE}|\u{1F3FF}/gu, '');
}

/** Ẑen a reaction pays, or null when it pays nothing (dislikes, other emojis, out-of-range `+N`). */
export function likeAmountZen(content: string): number | null {
  const text = normalise(content);
  if (LIKES.has(text)) return 1;
  const plus = /^\+([1-9]\d{0,3})$/.exec(text);
  if (!plus) return null;
  const amount = Number(plus[1]);
  return amount <= MAX_LIKE_ZEN ? amount : null;
}

export function zenToCents(zen: number): number {
  return zen * CENTS_PER_ZEN;
}

/** Ğ1 cents as the shortest decimal text the transfer tools accept: 10 → "0.1", 150 → "1.5", 200 → "2". */
export function centsToG1Text(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`invalid amount in cents: ${cents}`);
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
