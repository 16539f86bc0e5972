import type { SizeLimit } from '../fs/head-bytes.js';
import { TooLarge } from '../errors.js';
import { looksLikeNetscapeCookies } from './netscape.js';

/** No single-domain cookie export comes near this; a larger file that looks like cookies is refused early. */
export const COOKIE_MAX_BYTES = 8 * 1024 * 1024;

/** The staging limit of cookie intake: only files whose first bytes look like Netscape cookies are bound. */
export const cookieSizeLimit: SizeLimit = {
  maxBytes: COOKIE_MAX_BYTES,
  refuse: (head) =>
    looksLikeNetscapeCookies(head)
      ? new TooLarge('COOKIE_FILE_TOO_LARGE', {
          en: `A cookie file of more than ${COOKIE_MAX_BYTES / 1048576} MB is not a single-domain export.`,
          fr: `Un fichier de cookies de plus de ${COOKIE_MAX_BYTES / 1048576} Mo n’est pas l’export d’un seul domaine.`,
        })
      : null,
};
