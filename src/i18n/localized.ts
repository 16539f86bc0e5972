/**
 * A sentence in both languages the station speaks (docs/api-contract.md §6): every `detail` of an error
 * answer, and the success messages the pages show. Both texts are required, so a missing translation does
 * not type-check; the English one is also the error's `message` (logs, `X-Reason`).
 */
export interface Localized {
  readonly en: string;
  readonly fr: string;
}

/** The languages of the pages and of the answers' details. */
export type Language = keyof Localized;
