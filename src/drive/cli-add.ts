import { systemClock } from '../clock.js';
import { InvalidInput } from '../errors.js';
import type { UserRecord } from '../identity/user-files.js';
import { uploadAnswer } from './answers.js';
import { looksLikeNetscapeCookies } from '../cookies/netscape.js';
import type { DriveFileResult, DriveService } from './service.js';

/**
 * Adds a local file (a scraper's download) to a user's drive, as an upload would: a cookie file is refused
 * here too, since the command line has no cookie intake to hand it to.
 */
export async function addFileFromDisk(
  drive: DriveService,
  user: UserRecord,
  fileName: string,
  content: AsyncIterable<Uint8Array>,
): Promise<DriveFileResult> {
  const staged = await drive.stageFor(user, content);
  if (looksLikeNetscapeCookies(staged.head)) {
    await drive.staging.discard(staged);
    throw new InvalidInput('COOKIE_FILE', {
      en: 'This is a cookie file: it never goes to the drive.',
      fr: 'C’est un fichier de cookies : il ne va jamais dans le uDRIVE.',
    });
  }
  return drive.commit(user, staged, { fileName, source: { kind: 'cli' } });
}

/** The upload answer without the HTTP-only `auth_verified`. */
export function answerForCli(result: DriveFileResult, requested: string) {
  const { auth_verified: _authVerified, ...answer } = uploadAnswer(
    result,
    requested,
    systemClock.now(),
    'en',
  );
  return answer;
}
