import type { UserRecord } from '../identity/user-files.js';
import { extensionForType } from './categories.js';
import type { Provenance } from './manifest.js';
import type { DriveFileResult } from './placement.js';
import { QuotaExceededError, quotaLimit } from './quota.js';
import type { DriveService } from './service.js';
import { sniffContentType } from './store/content-type.js';
import { parseIpfsPath } from './store/ipfs-path.js';
import { NotAFileError, type ContentStore } from './store/types.js';

/** A name for content that came without one: its CID, with the extension its first bytes suggest. */
function nameForBareCid(cid: string, head: Uint8Array): string {
  const extension = extensionForType(sniffContentType(head));
  return extension ? `${cid}.${extension}` : cid;
}

/**
 * Copies a file of a public drive (`<cid>/<name>`, or a bare file CID) into the user's drive, under the
 * category of its name, recording where it came from. Directories and files over the quota are refused.
 */
export async function copyFromPublicDrive(
  drive: Pick<DriveService, 'usedBytes' | 'staging' | 'commit' | 'quotaBytes'>,
  store: Pick<ContentStore, 'stat' | 'cat'>,
  user: UserRecord,
  ipfsLink: string,
): Promise<DriveFileResult> {
  const link = parseIpfsPath(ipfsLink);
  const info = await store.stat(link.path);
  if (info.type !== 'file') throw new NotAFileError(link.path);
  const room = drive.quotaBytes - (await drive.usedBytes(user));
  if (info.size > room) throw new QuotaExceededError(drive.quotaBytes);
  const staged = await drive.staging.receive(store.cat(link.path), [quotaLimit(room)]);
  const fileName = link.segments.at(-1) ?? nameForBareCid(info.cid, staged.head);
  const source: Provenance = { kind: 'drive', ipfs_link: link.path, cid: info.cid };
  return drive.commit(user, staged, { fileName, source });
}
