import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type, type Static } from 'typebox';
import { PROJECT_ROOT } from '../config/config.js';
import { InvalidInput } from '../errors.js';
import { errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { trustedAddresses } from '../http/trusted.js';
import { pageContext, sendHtml, sharedViews } from '../http/views.js';
import { parseCoordinate } from './coordinates.js';
import { SystemReport, type SystemQuery } from './system.js';
import { UserGridIndex } from './user-index.js';

const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

const Query = Type.Object({
  lat: Type.Optional(Type.String({ maxLength: 32 })),
  lon: Type.Optional(Type.String({ maxLength: 32 })),
  deg: Type.Optional(Type.String({ maxLength: 32 })),
  html: Type.Optional(Type.String()),
  lang: Type.Optional(Type.String()),
});

const Umap = Type.Object({
  LAT: Type.Number(),
  LON: Type.Number(),
  SECTOR: Type.String(),
  REGION: Type.String(),
  USERS: Type.Integer(),
});

const SystemBody = Type.Object({
  version: Type.String(),
  DATE: Type.String(),
  uSPOT: Type.String(),
  myRELAY: Type.String(),
  IPFSNODEID: Type.Union([Type.String(), Type.Null()]),
  myIPFS: Type.String(),
  UPLANETG1PUB: Type.String(),
  G1: Type.Union([Type.Number(), Type.Null()]),
  ZEN: Type.Union([Type.Number(), Type.Null()]),
  CENTER: Type.Optional(Type.Object({ LAT: Type.Number(), LON: Type.Number(), DEG: Type.Number() })),
  CLOSEST_UMAPs: Type.Array(Type.Intersect([Umap, Type.Object({ DISTANCE_KM: Type.Number() })])),
  NOSTR: Type.Array(
    Type.Object({
      EMAIL: Type.Optional(Type.String({ description: 'Only for callers in TRUSTED_IPS' })),
      HEX: Type.String(),
      LAT: Type.Number(),
      LON: Type.Number(),
      G1PUBNOSTR: Type.Union([Type.String(), Type.Null()]),
      ZEN: Type.Union([Type.Number(), Type.Null()]),
    }),
  ),
  UMAPs: Type.Array(Umap),
});

function readQuery(query: Static<typeof Query>): SystemQuery {
  const given = (value: string | undefined) => value !== undefined && value !== '';
  if (!given(query.lat) && !given(query.lon)) {
    if (given(query.deg))
      throw new InvalidInput('INVALID_COORDINATES', {
        en: 'deg needs lat and lon.',
        fr: 'deg demande lat et lon.',
      });
    return { center: null, deg: 0 };
  }
  const lat = parseCoordinate(query.lat, 90);
  const lon = parseCoordinate(query.lon, 180);
  const deg = given(query.deg) ? parseCoordinate(query.deg, 180) : 1;
  if (lat === null || lon === null || deg === null || deg <= 0) {
    throw new InvalidInput('INVALID_COORDINATES', {
      en: 'lat (±90), lon (±180) and deg (the window side, 0.01 to 180 degrees) must be decimal numbers.',
      fr: 'lat (±90), lon (±180) et deg (le côté de la fenêtre, de 0.01 à 180 degrés) doivent être des nombres décimaux.',
    });
  }
  return { center: { lat, lon }, deg };
}

/** True when a browser asks for the page rather than the JSON. */
function prefersHtml(accept: string | undefined, html: string | undefined): boolean {
  if (html !== undefined) return true;
  const type = (accept ?? '').split(',')[0]?.trim() ?? '';
  return type.startsWith('text/html');
}

export async function geoRoutes(app: StationApp): Promise<void> {
  const views = await sharedViews();
  const report = new SystemReport({
    config: app.config,
    clock: app.clock,
    users: new UserGridIndex(app.users),
    ledger: app.ledger,
    logger: app.log,
  });
  // E-mails are personal data: only the station's swarm sees them.
  const swarm = trustedAddresses(app.config.trustedIps);

  app.get(
    '/',
    {
      schema: {
        summary: "The station's system JSON: wallets, and local users and UMAP cells around (lat, lon)",
        description: 'Users’ e-mails are included only for callers in TRUSTED_IPS (the station’s swarm).',
        tags: ['station'],
        produces: ['application/json', 'text/html'],
        querystring: Query,
        response: { 200: SystemBody, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      // A page of another site may read this answer (CORS `*`): it never gets the e-mails, even when the
      // browser running it is on a swarm address.
      const foreign = app.auth.origins.isForeign(request.headers.origin, {
        protocol: request.protocol,
        host: request.host,
        path: request.url,
      });
      const emails = swarm(request.ip) && !foreign;
      const data = await report.get(readQuery(request.query), { emails });
      // An answer with e-mails must not be kept by a shared cache and handed to someone else.
      if (emails) reply.header('cache-control', 'private, no-store');
      // The API, relay and gateway as this client reaches them (PUBLIC_URL, else the host it came by).
      const urls = app.publicUrls(request);
      const body = {
        version: VERSION,
        uSPOT: urls.api,
        myRELAY: urls.relay,
        IPFSNODEID: app.config.ipfsNodeId,
        myIPFS: urls.gateway,
        UPLANETG1PUB: app.config.wallets.distribution,
        ...data,
      };
      if (!prefersHtml(request.headers.accept, request.query.html)) return body;
      return sendHtml(
        reply,
        views.render('system', { ...pageContext(request), title: 'UPlanet', system: body }),
      );
    },
  );
}
