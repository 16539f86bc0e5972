import { Type } from 'typebox';
import { InvalidInput } from '../errors.js';
import { inAnswerLanguage } from '../http/request-language.js';
import { errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { CellKeys } from './cell-keys.js';
import { parseCoordinate } from './coordinates.js';

/** (north, east) steps of the eight neighbours, and the cell itself, in UPassport's key names. */
const DIRECTIONS = {
  north: [1, 0],
  south: [-1, 0],
  east: [0, 1],
  west: [0, -1],
  northeast: [1, 1],
  northwest: [1, -1],
  southeast: [-1, 1],
  southwest: [-1, -1],
  here: [0, 0],
} as const;

type Direction = keyof typeof DIRECTIONS;
/** Object.entries types its keys as string; these are exactly the keys of DIRECTIONS. */
const DIRECTION_STEPS = Object.entries(DIRECTIONS) as [Direction, (typeof DIRECTIONS)[Direction]][];

interface Level {
  field: 'umaps' | 'sectors' | 'regions';
  step: number;
  decimals: number;
  /** This level's coordinate text for the UMAP's 2-decimal text. */
  text: (umap: string) => string;
  /** keygen's salt and pepper for a cell. */
  seed: (network: string, lat: string, lon: string) => [string, string];
}

/**
 * The station tool's conventions (Umap_geonostr.sh): a UMAP is keyed by its two 2-decimal texts, a SECTOR by
 * its UMAP text without the last digit, a REGION by the integer part of the text ("-0.50" is REGION "-0"),
 * both as `_<lat>_<lon>` in salt and pepper alike.
 */
const LEVELS: readonly Level[] = [
  { field: 'umaps', step: 0.01, decimals: 2, text: (t) => t, seed: (n, lat, lon) => [n + lat, n + lon] },
  { field: 'sectors', step: 0.1, decimals: 1, text: (t) => t.slice(0, -1), seed: (n, a, o) => same(n, a, o) },
  { field: 'regions', step: 1, decimals: 0, text: (t) => t.split('.')[0]!, seed: (n, a, o) => same(n, a, o) },
];

function same(network: string, lat: string, lon: string): [string, string] {
  const id = `${network}_${lat}_${lon}`;
  return [id, id];
}

/** A neighbour's coordinate: unchanged text along the other axis, else the sum written canonically. */
function shifted(text: string, steps: number, level: Level): string {
  if (steps === 0) return text;
  const value = Number(text) + steps * level.step;
  const scale = 10 ** level.decimals;
  return (Math.round(value * scale) / scale).toFixed(level.decimals);
}

const Query = Type.Object({
  lat: Type.String({ maxLength: 32, description: 'Latitude, decimal degrees' }),
  lon: Type.String({ maxLength: 32, description: 'Longitude, decimal degrees' }),
});

const hex = () => Type.String();
const ByDirection = Type.Object({
  north: hex(),
  south: hex(),
  east: hex(),
  west: hex(),
  northeast: hex(),
  northwest: hex(),
  southeast: hex(),
  southwest: hex(),
  here: hex(),
});

const Geolinks = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  umap_coordinates: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
  umaps: ByDirection,
  sectors: ByDirection,
  regions: ByDirection,
  cells: Type.Object(
    { umaps: ByDirection, sectors: ByDirection, regions: ByDirection },
    { description: 'The cell of each key: "48.86_2.35" (UMAP), "48.8_2.3" (SECTOR), "48_2" (REGION)' },
  ),
  geolinks: Type.Object(ByDirection.properties, {
    description: 'The UMAP keys again (read by nostr_uplanet)',
  }),
  total_adjacent: Type.Integer(),
  timestamp: Type.String(),
  processing_time_ms: Type.Integer(),
});

/** `GET /api/umap/geolinks`: the NOSTR keys of the UMAP, SECTOR and REGION cells at and around a point. */
export async function geolinksRoutes(app: StationApp): Promise<void> {
  const keys = new CellKeys();
  const network = app.config.uplanetName;

  app.get(
    '/api/umap/geolinks',
    {
      schema: {
        summary: 'NOSTR keys (hex) of the neighbouring UMAP, SECTOR and REGION cells of a point',
        tags: ['geo'],
        querystring: Query,
        response: { 200: Geolinks, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const started = app.clock.now();
      const lat = parseCoordinate(request.query.lat, 90);
      const lon = parseCoordinate(request.query.lon, 180);
      if (lat === null || lon === null)
        throw new InvalidInput('INVALID_COORDINATES', {
          en: 'lat (±90) and lon (±180) must be decimal numbers.',
          fr: 'lat (±90) et lon (±180) doivent être des nombres décimaux.',
        });
      const umap = [lat.toFixed(2), lon.toFixed(2)] as const;
      // Filled below with every direction of every level.
      const answer = { umaps: {}, sectors: {}, regions: {} } as Record<
        Level['field'],
        Record<Direction, string>
      >;
      const cells = { umaps: {}, sectors: {}, regions: {} } as Record<
        Level['field'],
        Record<Direction, string>
      >;
      await Promise.all(
        LEVELS.flatMap((level) => {
          const [latText, lonText] = umap.map(level.text) as [string, string];
          return DIRECTION_STEPS.map(async ([direction, [north, east]]) => {
            const cellLat = shifted(latText, north, level);
            const cellLon = shifted(lonText, east, level);
            cells[level.field][direction] = `${cellLat}_${cellLon}`;
            answer[level.field][direction] = await keys.hexFor(...level.seed(network, cellLat, cellLon));
          });
        }),
      );
      // The same point always has the same keys on a network.
      reply.header('cache-control', 'public, max-age=86400');
      return {
        success: true,
        message: inAnswerLanguage(request, {
          en: `Neighbouring cells of UMAP (${umap[0]}, ${umap[1]})`,
          fr: `Cases voisines de l’UMAP (${umap[0]}, ${umap[1]})`,
        }),
        umap_coordinates: { lat, lon },
        ...answer,
        cells,
        geolinks: answer.umaps,
        total_adjacent: Object.keys(DIRECTIONS).length - 1,
        timestamp: new Date(app.clock.now()).toISOString(),
        processing_time_ms: Math.max(0, Math.round(app.clock.now() - started)),
      };
    },
  );
}
