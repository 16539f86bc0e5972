import { en } from '../../../pages/labels/en/index.js';
import { fr } from '../../../pages/labels/fr/index.js';

/**
 * The page languages (views.ts re-exports this). Defined here, not in views.ts, because the browser modules
 * type-check against the label catalogues, and views.ts pulls in Fastify's server types.
 */
export type Language = 'fr' | 'en';

/** All the page texts in one language (`pages/labels/<lang>/`), by page then label. */
export function pageLabels(lang: Language): typeof fr {
  return lang === 'fr' ? fr : en;
}
