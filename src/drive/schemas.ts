import { Type } from 'typebox';

const Npub = Type.Optional(
  Type.String({
    maxLength: 128,
    description: 'NOSTR key of the owner (npub or hex); must be the authenticated key',
  }),
);
const Timestamp = Type.String({ description: 'ISO 8601 local date-time without zone' });

export const UploadBody = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    file_path: Type.String({ description: 'Relative to the user directory: `APP/uDRIVE/Images/a.jpg`' }),
    file_type: Type.String({ description: '`image`, `audio`, `video` or `document`' }),
    target_directory: Type.String({ description: 'Absolute category folder the file was stored in' }),
    new_cid: Type.String({ description: 'The drive root CID after the upload (CIDv0)' }),
    file_cid: Type.String({ description: 'The file’s own CID (CIDv0, as `ipfs add`)' }),
    fileName: Type.String({ description: 'Final name: sanitised, numbered if the name was taken' }),
    fileHash: Type.String({ description: 'SHA-256 of the content, hex' }),
    mimeType: Type.String(),
    size: Type.Integer(),
    timestamp: Timestamp,
    auth_verified: Type.Literal(true),
  },
  { description: 'File stored in the drive (docs/api-contract.md §7)' },
);

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** `/api/fileupload` for a non-cookie file: UPassport's UploadResponse, media fields included. */
export const FileUploadBody = Type.Object(
  {
    ...UploadBody.properties,
    new_cid: Type.String({
      description:
        'The `ipfs add -w` directory of the file (CIDv0): `<gateway>/ipfs/<new_cid>/<fileName>` is the file',
    }),
    drive_cid: Type.String({
      description: 'The drive root CID after the upload (`new_cid` of `/api/upload`)',
    }),
    info: nullable(
      Type.String({
        description: 'CID of the JSON info document: file, CIDs, dimensions, duration, thumbnails',
      }),
    ),
    thumbnail_ipfs: nullable(Type.String({ description: 'CID of a JPEG still (images and videos)' })),
    gifanim_ipfs: nullable(Type.String({ description: 'CID of a 1.6 s animated GIF (videos)' })),
    dimensions: nullable(Type.String({ description: '`<width>x<height>` (images and videos)' })),
    duration: Type.Union([Type.Integer({ description: 'Whole seconds (videos and audio)' }), Type.Null()]),
    description: nullable(Type.String({ description: 'The `description` form field, or what the file is' })),
  },
  { description: 'File stored in the drive, with its media fields (null when unknown)' },
);

/**
 * A cookie-looking upload is handed to cookie intake, whose answer (docs/api-contract.md §8) is returned as
 * is.
 */
export const CookieHandoffBody = Type.Object(
  { success: Type.Literal(true), file_type: Type.Literal('netscape_cookies') },
  {
    additionalProperties: true,
    description: 'The file was a Netscape cookie file: cookie intake answer (§8)',
  },
);

export const CopyRequest = Type.Object({
  ipfs_link: Type.String({
    minLength: 1,
    maxLength: 4096,
    description: '`<cid>/<name>` (a drive file’s `ipfs_link`), `<cid>/<path>` or a bare file CID',
  }),
  npub: Npub,
});

export const CopyBody = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    file_path: Type.String({ description: 'Relative to the user directory: `APP/uDRIVE/Images/a.jpg`' }),
    file_type: Type.String(),
    new_cid: Type.String(),
    file_cid: Type.String(),
    timestamp: Timestamp,
    auth_verified: Type.Literal(true),
  },
  { description: 'File copied into the drive (docs/api-contract.md §7)' },
);

export const DeleteRequest = Type.Object({
  file_path: Type.String({
    minLength: 1,
    maxLength: 4096,
    description: 'Relative to `APP/uDRIVE`: `Images/a.jpg`',
  }),
  npub: Npub,
});

export const DeleteBody = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    deleted_file: Type.String({ description: 'Relative to `APP/uDRIVE`' }),
    new_cid: Type.String(),
    timestamp: Timestamp,
    auth_verified: Type.Literal(true),
  },
  { description: 'File deleted (docs/api-contract.md §7)' },
);
