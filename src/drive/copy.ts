import type { StagedFile, StagingArea } from '../fs/staging.js';
import type { UserRecord } from '../identity/user-files.js';
import { extensionForType } from './categories.js';
import type { Provenance } from './manifest.js';
import type { DriveFileResult } from './placement.js';
import { QuotaExceededError, quotaLimit } from './quota.js';
import { fetchVerified, type RemoteGateways } from './remote-copy.js';
import { sniffContentType } from './store/content-type.js';
import { parseIpfsPath, type IpfsPath } from './store/ipfs-path.js';
import { NotAFileError, type ContentStore } from './store/types.js';

/** A name for content that came without one: its CID, with the extension its first bytes suggest. */
function nameForBareCid(cid: string, head: Uint8Array): string {
  const extension = extensionForType(sniffContentType(head));
  return extension ? `${cid}.${extension}` : cid;
}

/** What a copy needs of the drive (DriveService), named here so that the service can delegate to this file. */
export interface CopyTarget {
  readonly quotaBytes: number;
  readonly staging: Pick<StagingArea, 'receive' | 'discard'>;
  usedBytes(user: UserRecord): Promise<number>;
  commit(
    user: UserRecord,
    staged: StagedFile,
    input: { fileName: string; source: Provenance },
  ): Promise<DriveFileResult>;
}

/** The gateway URL a link names when it is another station's (`http(s)://host/ipfs/<cid>/…`), else null. */
function remoteGateway(ipfsLink: string, remote: RemoteGateways | undefined): URL | null {
  if (!remote || !/^https?:\/\//i.test(ipfsLink.trim())) return null;
  const url = new URL(ipfsLink.trim());
  return remote.own.some((own) => new URL(own).origin === url.origin) ? null : url;
}

/**
 * Copies a file of a public drive (`<cid>/<name>`, or a bare file CID) into the user's drive, under the
 * category of its name, recording where it came from. Directories and files over the quota are refused.
 * A gateway URL of another station is fetched from that gateway as a CAR, every block verified against
 * its CID before anything is staged (remote-copy.ts); any other link is read from the local store.
 */
export async function copyFromPublicDrive(
  drive: CopyTarget,
  store: Pick<ContentStore, 'stat' | 'cat'>,
  user: UserRecord,
  ipfsLink: string,
  remote?: RemoteGateways,
): Promise<DriveFileResult> {
  const link = parseIpfsPath(ipfsLink);
  const gateway = remoteGateway(ipfsLink, remote);
  if (gateway && remote) return copyVerified(drive, remote, user, gateway, link);
  const info = await store.stat(link.path);
  if (info.type !== 'file') throw new NotAFileError(link.path);
  const room = drive.quotaBytes - (await drive.usedBytes(user));
  if (info.size > room) throw new QuotaExceededError(drive.quotaBytes);
  const staged = await drive.staging.receive(store.cat(link.path), [quotaLimit(room)]);
  const fileName = link.segments.at(-1) ?? nameForBareCid(info.cid, staged.head);
  const source: Provenance = { kind: 'drive', ipfs_link: link.path, cid: info.cid };
  return drive.commit(user, staged, { fileName, source });
}

async function copyVerified(
  drive: CopyTarget,
  remote: RemoteGateways,
  user: UserRecord,
  gateway: URL,
  link: IpfsPath,
): Promise<DriveFileResult> {
  const room = drive.quotaBytes - (await drive.usedBytes(user));
  if (room <= 0) throw new QuotaExceededError(drive.quotaBytes);
  const { staged, cid } = await fetchVerified(drive.staging, remote, gateway, link, room);
  const fileName = link.segments.at(-1) ?? nameForBareCid(cid, staged.head);
  const source: Provenance = { kind: 'drive', ipfs_link: link.path, cid };
  return drive.commit(user, staged, { fileName, source });
}
