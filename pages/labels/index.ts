import type { Language } from '../../src/i18n/localized.js';
import { en } from './en/index.js';
import { fr } from './fr/index.js';

/**
 * The page languages, the same as the server's details (src/i18n/localized.ts, free of Fastify's server
 * types, so the browser modules type-check against it too); src/http/views.ts re-exports it.
 */
export type { Language };

/** All the page texts in one language (`pages/labels/<lang>/`), by page then label. */
export function pageLabels(lang: Language): typeof fr {
  return lang === 'fr' ? fr : en;
}
