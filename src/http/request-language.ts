import type { FastifyRequest } from 'fastify';
import { chooseLanguage, type LanguageAsked } from '../i18n/language.js';
import type { Language, Localized } from '../i18n/localized.js';

/** `?lang=` (when the query is parsed and has one) and `Accept-Language`. */
function asked(request: FastifyRequest): LanguageAsked {
  const query = request.query as Record<string, unknown> | null | undefined;
  return {
    lang: typeof query === 'object' && query !== null ? query.lang : undefined,
    acceptLanguage: request.headers['accept-language'],
  };
}

/** The language of a page: `?lang=`, then `Accept-Language`, then French (stations speak French first). */
export function pageLanguage(request: FastifyRequest): Language {
  return chooseLanguage(asked(request), 'fr');
}

/**
 * The language of the details and messages of a JSON answer: `?lang=`, then `Accept-Language`, then English,
 * which scripts and UPlanet tools read today (docs/api-contract.md §6). The pages send their own language.
 */
export function answerLanguage(request: FastifyRequest): Language {
  return chooseLanguage(asked(request), 'en');
}

/** `text` in the language of the JSON answer to `request`. */
export function inAnswerLanguage(request: FastifyRequest, text: Localized): string {
  return text[answerLanguage(request)];
}
