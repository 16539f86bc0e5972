import type { TSchema } from 'typebox';
import { parseCoordinate } from '../geo/coordinates.js';
import { umapOf } from '../geo/grid.js';
import { InvalidInput, NotFound } from '../errors.js';
import { errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { parsePubkey } from '../identity/pubkey.js';
import {
  FollowsBody,
  GeoBody,
  GeoQuery,
  PlaylistBody,
  ProfileBody,
  PubkeyParams,
  StatsBody,
  VideosBody,
} from './schemas.js';
import type { StationView } from './station-view.js';

const TAGS = ['view'];
const MAX_DEG = 1;

function hexOf(input: string): string {
  const parsed = parsePubkey(input);
  if (!parsed)
    throw new InvalidInput('BAD_PUBKEY', {
      en: 'The public key must be an npub or 64 hex characters.',
      fr: 'La clé publique doit être une npub ou 64 caractères hexadécimaux.',
    });
  return parsed.hex;
}

function windowSide(text: string | undefined): number {
  if (text === undefined || text === '') return 0.01;
  const deg = /^\d*\.?\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!(deg >= 0.01 && deg <= MAX_DEG))
    throw new InvalidInput('BAD_DEG', {
      en: `deg must be a number of degrees from 0.01 to ${MAX_DEG}.`,
      fr: `deg doit être un nombre de degrés de 0.01 à ${MAX_DEG}.`,
    });
  return deg;
}

/**
 * Read-only JSON of the station view (kinds 0, 1, 3, 21/22, 10001 as last seen on the relay). Registered
 * always; a process without streams serves an empty view.
 */
export async function viewRoutes(app: StationApp): Promise<void> {
  const view: StationView = app.view;
  const byKey = <Body extends TSchema>(summary: string, body: Body) => ({
    schema: {
      summary,
      tags: TAGS,
      params: PubkeyParams,
      response: { 200: body, ...errorResponses(400, 404) },
    },
  });

  app.get('/api/view/profile/:pubkey', byKey('Newest kind-0 profile of a key', ProfileBody), (request) => {
    const profile = view.profile(hexOf(request.params.pubkey));
    if (!profile)
      throw new NotFound('PROFILE_NOT_FOUND', {
        en: 'No profile of this key has been seen on the relay.',
        fr: 'Aucun profil de cette clé n’a été vu sur le relais.',
      });
    return profile;
  });

  app.get(
    '/api/view/follows/:pubkey',
    byKey('Newest follow list (kind 3) of a local user', FollowsBody),
    (request) => {
      const follows = view.followsOf(hexOf(request.params.pubkey));
      if (!follows)
        throw new NotFound('FOLLOWS_NOT_FOUND', {
          en: 'No follow list of this local user has been seen.',
          fr: 'Aucune liste d’abonnements de cet utilisateur n’a été vue.',
        });
      return { ...follows, count: follows.follows.length };
    },
  );

  app.get(
    '/api/view/videos/:pubkey',
    byKey('Videos (kinds 21/22) of a local user, newest first', VideosBody),
    (request) => {
      const pubkey = hexOf(request.params.pubkey);
      const videos = view.videosOf(pubkey);
      return { pubkey, videos, count: videos.length };
    },
  );

  app.get(
    '/api/view/playlists/:pubkey',
    byKey('Newest playlist (kind 10001) of a local user', PlaylistBody),
    (request) => {
      const playlist = view.playlistOf(hexOf(request.params.pubkey));
      if (!playlist)
        throw new NotFound('PLAYLIST_NOT_FOUND', {
          en: 'No playlist of this local user has been seen.',
          fr: 'Aucune playlist de cet utilisateur n’a été vue.',
        });
      return playlist;
    },
  );

  app.get(
    '/api/geo/messages',
    {
      schema: {
        summary: 'Geo-tagged notes (kind 1) of the UMAP cells around a point, newest first',
        tags: TAGS,
        querystring: GeoQuery,
        response: { 200: GeoBody, ...errorResponses(400) },
      },
    },
    (request) => {
      const lat = parseCoordinate(request.query.lat, 90);
      const lon = parseCoordinate(request.query.lon, 180);
      if (lat === null || lon === null)
        throw new InvalidInput('BAD_COORDINATES', {
          en: 'lat and lon must be decimal degrees within range.',
          fr: 'lat et lon doivent être des degrés décimaux dans les bornes.',
        });
      const deg = windowSide(request.query.deg);
      const center = { lat, lon };
      const messages = view.geoMessages(center, deg, request.query.limit ?? 100);
      return { center, umap: umapOf(center), deg, count: messages.length, messages };
    },
  );

  app.get(
    '/api/view/stats',
    {
      schema: {
        summary: 'Sizes of the station view and per-stream event counts',
        tags: TAGS,
        response: { 200: StatsBody },
      },
    },
    () => ({ sizes: view.sizes(), counts: view.counts, stream_errors: view.errors }),
  );
}
