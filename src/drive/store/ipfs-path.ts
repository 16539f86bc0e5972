import { CID } from 'multiformats/cid';
import { parsedCid } from './cid-text.js';
import { InvalidContentPathError } from './types.js';

/** A validated IPFS path: a CID and zero or more plain names below it. */
export interface IpfsPath {
  cid: CID;
  segments: string[];
  /** `<cid>[/<name>…]`, the form every ContentStore method takes. */
  path: string;
}

const MAX_LENGTH = 4096;

function parseCid(text: string): CID {
  try {
    return parsedCid(text);
  } catch {
    const shown = text.slice(0, 100);
    throw new InvalidContentPathError({
      en: `"${shown}" is not a valid CID.`,
      fr: `« ${shown} » n’est pas un CID valide.`,
    });
  }
}

function decodeSegment(raw: string): string {
  let name = raw;
  if (raw.includes('%')) {
    try {
      name = decodeURIComponent(raw);
    } catch {
      // Not percent-encoding after all: a name with a literal `%` (`100%.txt`).
      name = raw;
    }
  }
  // Backslashes are refused too: the UnixFS exporter reads `\/` as an escaped slash.
  // eslint-disable-next-line no-control-regex
  if (name === '.' || name === '..' || /[/\\\u0000-\u001f]/.test(name))
    throw new InvalidContentPathError({
      en: 'The IPFS path has an invalid name in it.',
      fr: 'Le chemin IPFS contient un nom invalide.',
    });
  return name;
}

/**
 * Accepts `<cid>[/<name>…]`, `/ipfs/<cid>/…`, `ipfs://<cid>/…` and gateway URLs `http(s)://host/ipfs/<cid>/…`.
 * Names may be percent-encoded (as copied from a gateway URL). Anything else is a 400.
 */
export function parseIpfsPath(input: string): IpfsPath {
  let text = input.trim();
  if (text.length === 0 || text.length > MAX_LENGTH)
    throw new InvalidContentPathError({
      en: 'An IPFS link (<cid> or <cid>/<name>) is required.',
      fr: 'Un lien IPFS (<cid> ou <cid>/<nom>) est requis.',
    });
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new InvalidContentPathError({
        en: 'The IPFS link is not a valid URL.',
        fr: 'Le lien IPFS n’est pas une URL valide.',
      });
    }
    const at = url.pathname.indexOf('/ipfs/');
    if (at < 0)
      throw new InvalidContentPathError({
        en: 'The gateway URL has no /ipfs/<cid> path.',
        fr: 'L’URL de passerelle n’a pas de chemin /ipfs/<cid>.',
      });
    text = url.pathname.slice(at + '/ipfs/'.length);
  } else if (text.startsWith('ipfs://')) text = text.slice('ipfs://'.length);
  else if (text.startsWith('/ipfs/')) text = text.slice('/ipfs/'.length);

  const [first, ...rest] = text.split('/');
  const cid = parseCid(first ?? '');
  // A trailing slash (`<cid>/`) is harmless; an empty name in the middle is not.
  if (rest.at(-1) === '') rest.pop();
  if (rest.some((segment) => segment === ''))
    throw new InvalidContentPathError({
      en: 'The IPFS path has an empty name in it.',
      fr: 'Le chemin IPFS contient un nom vide.',
    });
  const segments = rest.map(decodeSegment);
  const cidText = cid.toString();
  return { cid, segments, path: [cidText, ...segments].join('/') };
}

/** Converts a dag-pb CID (v0 or v1) to the CIDv0 text Kubo's defaults use. */
export function toCidV0(cid: CID | string): string {
  const parsed = typeof cid === 'string' ? CID.parse(cid) : cid;
  return parsed.code === 0x70 && parsed.multihash.code === 0x12
    ? parsed.toV0().toString()
    : parsed.toString();
}
