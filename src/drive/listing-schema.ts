import { Type, type Static } from 'typebox';

// Type-only imports of this file reach the browser modules (pages/): keep it free of Node imports.

import { EXPLORER_NAME } from './published-names.js';

export const PublishedFile = Type.Object({
  path: Type.String({ description: 'Relative to the drive root: `Images/a.jpg`' }),
  name: Type.String(),
  category: Type.String({ description: '`Documents`, `Images`, `Music` or `Videos` (the folder)' }),
  type: Type.String({ description: '`document`, `image`, `audio` or `video`' }),
  mime_type: Type.String(),
  size: Type.Integer({ description: 'Bytes' }),
  sha256: Type.String({ description: 'SHA-256 of the content, hex' }),
  cid: Type.String({ description: 'The file’s CID (CIDv0, as `ipfs add`)' }),
  ipfs_link: Type.String({
    description: '`<cid>/<name>`: a pinned one-file directory, stable across changes',
  }),
  added_at: Type.String({ description: 'ISO 8601 local date-time of the station, without zone' }),
});

const publishedProperties = {
  generator: Type.Literal('uplanet-station'),
  version: Type.Literal(1),
  owner_hex_pubkey: Type.String({ description: 'NOSTR key of the owner, hex' }),
  my_ipfs_gateway: Type.String({ description: 'The station’s gateway (IPFS_GATEWAY)' }),
  api_url: Type.String({
    description: 'The station API the explorer uploads and deletes through (first PUBLIC_URL, else loopback)',
  }),
  explorer: Type.Literal(EXPLORER_NAME),
  total_files: Type.Integer(),
  total_size: Type.Integer({ description: 'Bytes' }),
  files: Type.Array(PublishedFile, { description: 'In the order they were added' }),
};

/**
 * `manifest.json` of a published drive root, read by its `_index.html`. Nothing here depends on when it was
 * written, so the same files give the same root CID; no e-mail address: the root is public.
 */
export const PublishedManifest = Type.Object(publishedProperties, {
  description: 'The public manifest of a drive (`manifest.json` in its root)',
});

/** `GET /api/drive`: the public manifest, plus what only the station knows: the current root. */
export const DriveListing = Type.Object(
  {
    ...publishedProperties,
    root_cid: Type.Union([Type.String(), Type.Null()], {
      description:
        'The drive root (CIDv0): four folders, `manifest.json`, `_index.html`; null when never published',
    }),
    explorer_url: Type.Union([Type.String(), Type.Null()], {
      description: '`<gateway>/ipfs/<root>/_index.html`; null when never published',
    }),
    updated_at: Type.String({ description: 'ISO 8601 local date-time of the last change' }),
  },
  { description: 'A user’s drive (public: its root is published content)' },
);

export const DriveQuery = Type.Object({
  npub: Type.String({ minLength: 1, maxLength: 128, description: 'The owner’s key: npub or 64 hex' }),
});

export type PublishedFile = Static<typeof PublishedFile>;
export type PublishedManifest = Static<typeof PublishedManifest>;
export type DriveListing = Static<typeof DriveListing>;
