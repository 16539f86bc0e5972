import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../config/config.js';

/** Where `scripts/build-pages.mjs` writes the drive explorer (`pages/explorer/`) and its facts. */
export const EXPLORER_DIR = join(PROJECT_ROOT, 'dist', 'explorer');

/** The drive explorer as built: the same bytes in every drive, so one CID per build. */
export interface Explorer {
  bytes: Uint8Array;
  /** CIDv0 of the bytes as `ipfs add` computes it. */
  cid: string;
  /** CSP sources (`'sha256-…'`) of its one inline script and one inline style. */
  scriptHash: string;
  styleHash: string;
}

interface ExplorerFacts {
  cid: string;
  script: string;
  style: string;
}

let loaded: Promise<Explorer> | null = null;

async function read(dir: string): Promise<Explorer> {
  let bytes: Buffer;
  let facts: ExplorerFacts;
  try {
    bytes = await readFile(join(dir, '_index.html'));
    facts = JSON.parse(await readFile(join(dir, 'explorer.json'), 'utf8')) as ExplorerFacts;
  } catch (error) {
    throw new Error(`The drive explorer is not built (${dir}): run \`npm run build\`.`, { cause: error });
  }
  return { bytes, cid: facts.cid, scriptHash: facts.script, styleHash: facts.style };
}

/** The built explorer, read once per process. */
export function loadExplorer(dir: string = EXPLORER_DIR): Promise<Explorer> {
  if (dir !== EXPLORER_DIR) return read(dir);
  loaded ??= read(dir).catch((error: unknown) => {
    loaded = null;
    throw error;
  });
  return loaded;
}

/**
 * The policy the gateway serves the explorer with, instead of `sandbox`: exactly its own inline script and
 * style run; it may read the gateway (its manifest, the files) and call the API, nothing else; images and
 * media from the gateway only; it cannot be framed, change its base URL or submit forms anywhere.
 */
export function explorerPolicy(explorer: Explorer, connect: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src '${explorer.scriptHash}'`,
    `style-src '${explorer.styleHash}'`,
    "img-src 'self' blob: data:",
    "media-src 'self' blob: data:",
    `connect-src 'self' ${connect.join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
