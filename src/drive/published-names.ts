// Apart from the listing's schemas (listing-schema.ts): code that only names these files, the CLI's among it,
// does not load TypeBox (373 modules, a tenth of a second of `station gc`).

/** The name of the explorer in a published drive root. */
export const EXPLORER_NAME = '_index.html';
/** The name of the public manifest in a published drive root. */
export const PUBLISHED_MANIFEST_NAME = 'manifest.json';
