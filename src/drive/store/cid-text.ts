import { LRUCache } from 'lru-cache';
import { CID } from 'multiformats/cid';

/**
 * CIDs travel between the store, the drive and the manifest as text (base58btc for CIDv0), and decoding that
 * text is the costly part of a CID (base58 is quadratic in its length). The CIDs the station makes or reads are
 * remembered by their text, so a folder re-encoded at every change of one of its files, or a pin of the
 * wrapper made a moment ago, decodes nothing.
 */
const known = new LRUCache<string, CID>({ max: 50_000 });

/** The CID a text names (throws as `CID.parse` does), decoded once. */
export function parsedCid(text: string): CID {
  let cid = known.get(text);
  if (!cid) known.set(text, (cid = CID.parse(text)));
  return cid;
}

/** The text of a CID, remembered so that parsing it back costs nothing. */
export function cidText(cid: CID): string {
  const text = cid.toString();
  if (!known.has(text)) known.set(text, cid);
  return text;
}
