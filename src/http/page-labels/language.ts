/**
 * The page languages (same union as `Language` of ../views.ts). Label modules import it from here because the
 * browser modules type-check against them, and views.ts pulls in Fastify's server types.
 */
export type Language = 'fr' | 'en';
