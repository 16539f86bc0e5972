import { Type, type Static } from 'typebox';

const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Number>>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Hex = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const PubkeyParams = Type.Object({
  pubkey: Type.String({ minLength: 1, maxLength: 100, description: 'npub or 64-hex public key' }),
});

export const ProfileBody = Type.Object({
  pubkey: Hex,
  event_id: Hex,
  created_at: Type.Integer({ description: 'Unix seconds of the kind-0 event kept (the newest seen)' }),
  name: Nullable(Type.String()),
  display_name: Nullable(Type.String()),
  about: Nullable(Type.String()),
  picture: Nullable(Type.String()),
  banner: Nullable(Type.String()),
  nip05: Nullable(Type.String()),
  website: Nullable(Type.String()),
  lud16: Nullable(Type.String()),
  g1pub: Nullable(Type.String({ description: 'Ğ1 wallet (SS58) named by the profile' })),
});

export const FollowsBody = Type.Object({
  pubkey: Hex,
  event_id: Hex,
  created_at: Type.Integer(),
  follows: Type.Array(Hex),
  count: Type.Integer(),
});

const Video = Type.Object({
  id: Hex,
  kind: Type.Union([Type.Literal(21), Type.Literal(22)]),
  pubkey: Hex,
  created_at: Type.Integer(),
  published_at: Nullable(Type.Number()),
  title: Nullable(Type.String()),
  summary: Nullable(Type.String()),
  url: Type.String(),
  mime: Nullable(Type.String()),
  thumbnail: Nullable(Type.String()),
  duration: Nullable(Type.Number()),
  hashtags: Type.Array(Type.String()),
});

export const VideosBody = Type.Object({ pubkey: Hex, videos: Type.Array(Video), count: Type.Integer() });

export const PlaylistBody = Type.Object({
  pubkey: Hex,
  event_id: Hex,
  created_at: Type.Integer(),
  title: Nullable(Type.String()),
  items: Type.Array(
    Type.Object({
      type: Type.Union([Type.Literal('e'), Type.Literal('a'), Type.Literal('r')]),
      value: Type.String(),
      relay: Nullable(Type.String()),
    }),
  ),
});

const LatLon = Type.Object({ lat: Type.Number(), lon: Type.Number() });

export const GeoQuery = Type.Object({
  lat: Type.String({ maxLength: 32, description: 'Latitude, decimal degrees' }),
  lon: Type.String({ maxLength: 32, description: 'Longitude, decimal degrees' }),
  deg: Type.Optional(
    Type.String({
      maxLength: 16,
      description: 'Side of the square window in degrees (0.01 … 1, default 0.01)',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Newest messages returned' })),
});

const GeoMessageBody = Type.Object({
  id: Hex,
  pubkey: Hex,
  created_at: Type.Integer(),
  content: Type.String(),
  lat: Type.Number(),
  lon: Type.Number(),
  umap: LatLon,
});

/** A geo-tagged note as the station view keeps it and `/api/geo/messages` lists it (the /nostr page reads it). */
export type GeoMessage = Static<typeof GeoMessageBody>;

export const GeoBody = Type.Object({
  center: LatLon,
  umap: LatLon,
  deg: Type.Number(),
  count: Type.Integer(),
  messages: Type.Array(GeoMessageBody),
});

const Counts = Type.Object({
  applied: Type.Integer(),
  stale: Type.Integer(),
  duplicate: Type.Integer(),
  ignored: Type.Integer(),
  malformed: Type.Integer(),
});
const Concerns = <T extends ReturnType<typeof Type.Integer> | typeof Counts>(schema: T) =>
  Type.Object({ profiles: schema, follows: schema, videos: schema, playlists: schema, geo: schema });

export const StatsBody = Type.Object({
  sizes: Concerns(Type.Integer()),
  counts: Concerns(Counts),
  stream_errors: Type.Record(Type.String(), Type.Integer()),
});
