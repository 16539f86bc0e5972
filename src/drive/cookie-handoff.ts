import type { StagedFile } from '../fs/staging.js';
import type { Static } from 'typebox';
import type { Language } from '../i18n/localized.js';
import type { UserRecord } from '../identity/user-files.js';
import type { CookieHandoffBody } from './schemas.js';

/**
 * How the drive hands cookie-looking uploads to cookie intake (docs/api-contract.md §7, §8): `app.ts` builds
 * it from `looksLikeNetscapeCookies` and the `CookieVault`; `accept` moves the staged file (made 600, as every
 * file that may be cookies is) into the user directory and returns the §8 answer, its message in `lang`. A
 * cookie file never reaches the drive.
 */
export interface CookieHandoff {
  looksLikeCookies(head: Uint8Array): boolean;
  accept(
    user: UserRecord,
    staged: Pick<StagedFile, 'path' | 'size' | 'head' | 'mode'>,
    lang: Language,
  ): Promise<Static<typeof CookieHandoffBody>>;
}
