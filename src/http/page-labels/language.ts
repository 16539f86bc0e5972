/**
 * The page languages (views.ts re-exports this). Defined here, not in views.ts, because the browser modules
 * type-check against the label modules, and views.ts pulls in Fastify's server types.
 */
export type Language = 'fr' | 'en';
