import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Type } from 'typebox';
import { localTimestamp } from '../clock.js';
import { StationError, NotFound, Unauthenticated } from '../errors.js';
import { AnswerWithStatus } from '../http/error-status.js';
import { inAnswerLanguage } from '../http/request-language.js';
import { ErrorBody, errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { parsePubkey } from '../identity/pubkey.js';
import { parseGps } from './coordinates.js';

const Query = Type.Object({
  npub: Type.String({ maxLength: 128, description: 'The caller: npub or 64 hex characters' }),
});

const Nullable = Type.Union([Type.String(), Type.Null()]);

const MyGps = Type.Object({
  success: Type.Boolean(),
  coordinates: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
  umap_key: Type.String({ description: '"48.86,2.35": the UMAP cell' }),
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'Only when the request carries a proof (NIP-98 or a signed challenge)',
  }),
  source: Type.String({ description: 'Always "local": this station serves its own users only' }),
  home_station_url: Nullable,
  nostrns: Nullable,
  udrive_url: Nullable,
  home_node_hex: Nullable,
  home_ipfsnodeid: Nullable,
  home_http_url: Nullable,
  home_myipfs: Nullable,
  ipfsnodeid: Nullable,
  message: Type.String(),
  timestamp: Type.String(),
});

const Refusal = Type.Object(
  {
    ...ErrorBody.properties,
    nip42_challenge: Type.Optional(Type.String()),
    expires_in: Type.Optional(Type.Integer()),
  },
  { description: 'Refused; an unauthenticated caller also gets a fresh challenge issued to its address' },
);

async function readText(path: string): Promise<string | null> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return null;
  }
}

/**
 * `GET /api/myGPS?npub=`: the caller's own position, for the caller authenticated as that key (proof or
 * relay-observed login), in UPassport's fields. The roaming fields (another home station) never apply here and
 * are null; `debug` (server paths) is not sent.
 */
export async function myGpsRoutes(app: StationApp): Promise<void> {
  app.get(
    '/api/myGPS',
    {
      schema: {
        summary: "The caller's own position (GPS file), for the caller authenticated as npub",
        tags: ['geo'],
        security: [{ nostr: [] }],
        querystring: Query,
        response: { 200: MyGps, 400: ErrorBody, 403: Refusal, 404: ErrorBody, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      let owner;
      try {
        owner = await request.requireOwner({ npub: request.query.npub });
      } catch (error) {
        // UPlanet pages treat 403 as "log in on the relay" and 404 as "not known here"; a 403 carries a fresh
        // challenge for this address, so the client can sign it and retry in one round trip.
        if (error instanceof Unauthenticated) {
          const key = parsePubkey(request.query.npub);
          const issued = key ? await app.auth.challenges.issue(key.hex, request.ip) : null;
          return reply.status(403).send({
            detail: inAnswerLanguage(request, error.detail),
            code: error.code,
            ...(issued ? { nip42_challenge: issued.challenge, expires_in: issued.expiresIn } : {}),
          });
        }
        if (error instanceof StationError && error.code === 'NOT_REGISTERED')
          throw new AnswerWithStatus(404, error);
        throw error;
      }
      const { auth, user } = owner;
      const dir = app.users.dirFor(user.email);
      const gps = parseGps((await readText(join(dir, 'GPS'))) ?? '');
      if (!gps)
        throw new NotFound('GPS_NOT_SET', {
          en: 'No position is recorded for this user (GPS file).',
          fr: 'Aucune position n’est enregistrée pour cet utilisateur (fichier GPS).',
        });
      const nostrns = await readText(join(dir, 'NOSTRNS'));
      return {
        success: true,
        coordinates: { lat: gps.lat, lon: gps.lon },
        umap_key: `${gps.lat.toFixed(2)},${gps.lon.toFixed(2)}`,
        // Who is behind a key is told only to a caller who proved holding it in this request (as /api/me).
        email: auth.proof ? user.email : null,
        source: 'local',
        home_station_url: null,
        nostrns: nostrns && /^(\/ipns\/)?[a-z0-9]{10,100}$/i.test(nostrns) ? nostrns : null,
        udrive_url: null,
        home_node_hex: null,
        home_ipfsnodeid: null,
        home_http_url: null,
        home_myipfs: null,
        ipfsnodeid: app.config.ipfsNodeId,
        message: inAnswerLanguage(request, {
          en: 'GPS coordinates retrieved successfully',
          fr: 'Coordonnées GPS obtenues',
        }),
        timestamp: localTimestamp(app.clock.now()),
      };
    },
  );
}
