import { Type } from 'typebox';

export const BlobParams = Type.Object({
  blob: Type.String({
    maxLength: 80,
    description: 'SHA-256 (64 lowercase hex), optionally with an extension',
  }),
});

export const ListParams = Type.Object({
  pubkey: Type.String({ maxLength: 64, description: 'Hex public key' }),
});

/** Query numbers stay strings until checked: ajv would coerce `1e309` to an Infinity that passes `integer`. */
export const QueryCount = (description: string, digits = 12) =>
  Type.Optional(Type.String({ pattern: `^[0-9]{1,${digits}}$`, description }));

export const ListQuery = Type.Object({
  since: QueryCount('Only blobs uploaded at or after (unix s)'),
  until: QueryCount('Only blobs uploaded at or before (unix s)'),
  cursor: Type.Optional(
    Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the last blob seen' }),
  ),
  limit: QueryCount('Page size (1 to 1000; default 1000)', 4),
});

export const BlobDescriptorBody = Type.Object(
  {
    url: Type.String(),
    sha256: Type.String(),
    size: Type.Integer(),
    type: Type.String(),
    uploaded: Type.Integer(),
    nip94: Type.Array(Type.Array(Type.String())),
    cid: Type.String({ description: 'UnixFS CID of the blob in the content store' }),
    ipfs: Type.String({ description: 'The blob through the station’s IPFS gateway' }),
  },
  { description: 'BUD-02 blob descriptor, with BUD-08 nip94 tags' },
);

export const MirrorRequest = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 4096, description: 'Public http(s) URL of the blob' }),
});

export const DeletedBody = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  sha256: Type.String(),
});
