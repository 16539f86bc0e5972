import { en } from './en/index.js';
import { fr } from './fr/index.js';

/**
 * The page languages (src/http/views.ts re-exports this). Defined beside the catalogues, not in views.ts, because the browser modules
 * type-check against the label catalogues, and views.ts pulls in Fastify's server types.
 */
export type Language = 'fr' | 'en';

/** All the page texts in one language (`pages/labels/<lang>/`), by page then label. */
export function pageLabels(lang: Language): typeof fr {
  return lang === 'fr' ? fr : en;
}
