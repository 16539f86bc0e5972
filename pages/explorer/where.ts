// Where the explorer was opened: it must work from any gateway, at any path, and find its own root.

export interface Where {
  /** The folder the explorer sits in: `manifest.json` and the category folders are relative to it. */
  base: URL;
  /** The root CID in the URL, when the gateway shows one. */
  root: string | null;
  /** `<origin>[/prefix]` of a path gateway (`…/ipfs/<cid>`), to build links on the same gateway. */
  gatewayBase: string | null;
  /** The explorer of another root on the same gateway, or null when the URL does not tell how. */
  explorerOf(cid: string): string | null;
}

const EXPLORER = '_index.html';

/** `/ipfs/<cid>/`, `/ipfs/<cid>/_index.html`, `/x/ipfs/<cid>` (proxy prefix), `<cid>.ipfs.<domain>/…`. */
export function where(href: string): Where {
  const url = new URL(href);
  url.search = '';
  url.hash = '';
  const last = url.pathname.split('/').at(-1) ?? '';
  // A directory URL without its slash (`/ipfs/<cid>`): the folder is the CID itself.
  const base = url.pathname.endsWith('/') || last.includes('.') ? new URL('.', url) : new URL(`${url.href}/`);
  const path = /^(.*?)\/ipfs\/([^/]+)/.exec(url.pathname);
  if (path) {
    const gatewayBase = `${url.origin}${path[1]}`;
    return {
      base,
      root: decodeURIComponent(path[2]!),
      gatewayBase,
      explorerOf: (cid) => `${gatewayBase}/ipfs/${cid}/${EXPLORER}`,
    };
  }
  const subdomain = /^([a-z0-9]+)\.ipfs\.(.+)$/i.exec(url.host);
  if (subdomain) {
    // A subdomain gateway names CIDv1 in the host; its path form redirects any CID there.
    const gatewayBase = `${url.protocol}//${subdomain[2]}`;
    return {
      base,
      root: subdomain[1]!,
      gatewayBase,
      explorerOf: (cid) => `${gatewayBase}/ipfs/${cid}/${EXPLORER}`,
    };
  }
  return { base, root: null, gatewayBase: null, explorerOf: () => null };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * The API URL to call: the manifest's, except that a loopback API seen from another machine (a station on
 * the LAN without PUBLIC_URL) is reached by the host name this page came from. The gateway allows exactly
 * that in the explorer's connect-src (src/drive/links.ts apiSources): keep the two in step.
 */
export function apiBase(configured: string, page: URL): string | null {
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (LOOPBACK.has(url.hostname) && !LOOPBACK.has(page.hostname)) url.hostname = page.hostname;
  return url.href.replace(/\/+$/, '');
}
