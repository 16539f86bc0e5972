import { describe, expect, it } from 'vitest';
import { chooseLanguage, rankedLanguages } from './language.js';

describe('the language a request asks for', () => {
  it('ranks Accept-Language by q, a region counting as its language, q=0 refusing one', () => {
    expect(rankedLanguages('fr-CA,fr;q=0.9,en-US;q=0.8,en;q=0.7')).toEqual(['fr', 'fr', 'en', 'en']);
    expect(rankedLanguages('de-DE, en;q=0.4, fr;q=0.8')).toEqual(['fr', 'en']);
    expect(rankedLanguages('en;q=0.5, fr;q=0.5')).toEqual(['en', 'fr']);
    expect(rankedLanguages('fr;q=0, en;q=0.1')).toEqual(['en']);
    expect(rankedLanguages(['es', 'EN'])).toEqual(['en']);
    expect(rankedLanguages('*')).toEqual([]);
    expect(rankedLanguages(undefined)).toEqual([]);
  });

  it('lets ?lang= win, then the header, then the fallback', () => {
    expect(chooseLanguage({ lang: 'en', acceptLanguage: 'fr' }, 'fr')).toBe('en');
    expect(chooseLanguage({ lang: 'de', acceptLanguage: 'fr' }, 'en')).toBe('fr');
    expect(chooseLanguage({ acceptLanguage: 'de' }, 'en')).toBe('en');
    expect(chooseLanguage({}, 'fr')).toBe('fr');
  });
});
