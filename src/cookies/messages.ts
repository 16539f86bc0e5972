import type { Localized } from '../i18n/localized.js';

/**
 * What cookie intake says to the owner, in both languages (docs/api-contract.md §6, §8): the refusals of the
 * vault and the message of a stored file, which the cookie page shows as it comes.
 */

export const NOT_A_COOKIE_FILE: Localized = {
  en: 'This is not a Netscape cookie file.',
  fr: 'Ce n’est pas un fichier de cookies au format Netscape.',
};

export const noCookieFile = (domain: string | null): Localized => ({
  en: `There is no cookie file for ${domain ?? 'an unknown domain'}.`,
  fr: `Il n’y a pas de fichier de cookies pour ${domain ?? 'un domaine inconnu'}.`,
});

export const multiDomain = (listed: string): Localized => ({
  en: `Multi-domain cookie files are not supported: export the cookies of one domain per file and upload each file separately. Detected domains: ${listed}`,
  fr: `Les fichiers de cookies de plusieurs domaines ne sont pas acceptés : exportez les cookies d’un domaine par fichier et envoyez chaque fichier séparément. Domaines détectés : ${listed}`,
});

export const INVALID_DOMAIN: Localized = {
  en: 'Give a domain name such as youtube.com.',
  fr: 'Donnez un nom de domaine comme youtube.com.',
};

/** The `message` of a stored cookie file (`fileName` when no domain was found in it). */
export function storedMessage(domain: string | null, cookies: number, fileName: string): Localized {
  const count = `${cookies} cookie${cookies === 1 ? '' : 's'}`;
  return domain
    ? {
        en: `Cookie file for ${domain} saved (${count}); it replaces any previous one for this domain.`,
        fr: `Fichier de cookies de ${domain} enregistré (${count}) ; il remplace le précédent pour ce domaine.`,
      }
    : {
        en: `No domain detected in the cookie file; saved as ${fileName}.`,
        fr: `Aucun domaine détecté dans le fichier de cookies ; enregistré sous ${fileName}.`,
      };
}
