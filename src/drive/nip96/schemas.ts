import { Type } from 'typebox';
import { QueryCount } from '../blossom/schemas.js';

const Tags = Type.Array(Type.Array(Type.String()));

export const Nip96Info = Type.Object(
  {
    api_url: Type.String(),
    download_url: Type.String(),
    supported_nips: Type.Array(Type.Integer()),
    content_types: Type.Array(Type.String()),
    plans: Type.Record(
      Type.String(),
      Type.Object({
        name: Type.String(),
        is_nip98_required: Type.Boolean(),
        max_byte_size: Type.Integer(),
        file_expiration: Type.Array(Type.Integer()),
        media_transformations: Type.Record(Type.String(), Type.Array(Type.String())),
      }),
    ),
    extensions: Type.Record(Type.String(), Type.Boolean()),
  },
  { description: 'NIP-96 server information' },
);

/** NIP-96's upload answer, with the fields UPlanet's upload2ipfs clients read (new_cid, file_hash, …). */
export const Nip96UploadBody = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  nip94_event: Type.Object({ tags: Tags, content: Type.String() }),
  new_cid: Type.String({ description: 'The `ipfs add -w` folder of the file: /ipfs/<new_cid>/<name>' }),
  file_hash: Type.String(),
  file_type: Type.String(),
  size: Type.Integer(),
  dimensions: Type.Union([Type.String(), Type.Null()]),
  duration: Type.Union([Type.Number(), Type.Null()]),
  info: Type.Union([Type.String(), Type.Null()]),
  thumbnail_ipfs: Type.Union([Type.String(), Type.Null()]),
  gifanim_ipfs: Type.Union([Type.String(), Type.Null()]),
  drive_cid: Type.String({ description: 'The uploader’s drive root after the upload' }),
});

export const Nip96ListQuery = Type.Object({
  page: QueryCount('Page number, from 0', 7),
  count: QueryCount('Files per page (1 to 500; default 50)', 3),
});

export const Nip96ListBody = Type.Object({
  count: Type.Integer(),
  total: Type.Integer(),
  page: Type.Integer(),
  files: Type.Array(Type.Object({ tags: Tags, content: Type.String(), created_at: Type.Integer() })),
});

export const Nip96DeletedBody = Type.Object({ status: Type.Literal('success'), message: Type.String() });
