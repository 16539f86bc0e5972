import { MirrorFetchFailedError, MirrorUrlRefusedError } from './errors.js';

/** The URL a client asks to mirror: absolute, http(s), without credentials; anything else is refused (400). */
export function parseTarget(href: string): URL {
  let target: URL;
  try {
    target = new URL(href);
  } catch {
    throw new MirrorUrlRefusedError({
      en: 'the mirror URL is not an absolute URL',
      fr: 'l’URL à mettre en miroir n’est pas une URL absolue',
    });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new MirrorUrlRefusedError({
      en: `${target.protocol} URLs cannot be mirrored; only http: and https: can`,
      fr: `les URL ${target.protocol} ne peuvent pas être mises en miroir ; seules http: et https: le peuvent`,
    });
  }
  if (target.username !== '' || target.password !== '') {
    throw new MirrorUrlRefusedError({
      en: 'URLs carrying credentials cannot be mirrored',
      fr: 'les URL portant des identifiants ne peuvent pas être mises en miroir',
    });
  }
  return target;
}

/** Where a redirect of `from` leads; a missing or broken `Location` fails the fetch. */
export function redirectTarget(from: URL, status: number, location: string | undefined): string {
  if (location === undefined)
    throw new MirrorFetchFailedError({
      en: `${from.href} answered ${status} without a Location`,
      fr: `${from.href} a répondu ${status} sans en-tête Location`,
    });
  try {
    return new URL(location, from).href;
  } catch (error) {
    throw new MirrorFetchFailedError(
      {
        en: `${from.href} redirects to an invalid Location`,
        fr: `${from.href} redirige vers un en-tête Location invalide`,
      },
      error,
    );
  }
}
