import type { Language } from './localized.js';

/** What a request says about the language it wants: `?lang=…` and the `Accept-Language` header. */
export interface LanguageAsked {
  lang?: unknown;
  acceptLanguage?: string | string[] | undefined;
}

const isLanguage = (value: unknown): value is Language => value === 'fr' || value === 'en';

/**
 * The station's languages in the order `Accept-Language` ranks them (RFC 9110 q-values; a region such as
 * `fr-CA` counts as its language, `q=0` refuses one); the others, and `*`, are left out.
 */
export function rankedLanguages(acceptLanguage: string | string[] | undefined): Language[] {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => isLanguage(entry.lang) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.lang as Language);
}

/**
 * `?lang=fr|en` wins, then `Accept-Language`, then `fallback`: French for the pages (the stations speak
 * French first), English for JSON answers (the scripts and UPlanet tools that read today's details).
 */
export function chooseLanguage(asked: LanguageAsked, fallback: Language): Language {
  if (isLanguage(asked.lang)) return asked.lang;
  return rankedLanguages(asked.acceptLanguage)[0] ?? fallback;
}
