import { StationError } from '../../errors.js';
import type { ManifestEntry } from '../manifest.js';
import { encodeDirectory, type DirectoryLink } from '../store/dag.js';
import type { BlockBatch } from '../db/block-batch.js';
import type { ContentStore } from '../store/types.js';

/**
 * The `ipfs add -w` directory of a drive file: the drive writes one per file (links the file under its
 * name, pinned), and `ipfs_link` is `<wrapper>/<name>`. It is `/api/fileupload`'s `new_cid`, so that
 * `<gateway>/ipfs/<new_cid>/<fileName>` is the file, as UPlanet's pages build it.
 */
export function wrapperOf(entry: Pick<ManifestEntry, 'ipfs_link'>): string {
  return entry.ipfs_link.split('/')[0]!;
}

/**
 * One directory holding the media files made for an upload (info, thumbnail, GIF), so that one reference
 * keeps them and dropping it lets them go (db/commit.ts). Only its files' CIDs are ever given out.
 */
export async function storeBundle(
  store: Pick<ContentStore, 'putBlock'>,
  links: readonly DirectoryLink[],
  into: BlockBatch,
): Promise<string> {
  const sorted = [...links].sort((a, b) => (a.name < b.name ? -1 : 1));
  const node = await encodeDirectory(sorted);
  if ((await store.putBlock(node.bytes, node.cid, into)) !== node.cid)
    throw new StationError('CID_MISMATCH', {
      en: 'The content store computed another CID for a media folder.',
      fr: 'Le stockage de contenu a calculé un autre CID pour un dossier de média.',
    });
  return node.cid;
}
