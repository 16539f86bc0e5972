import type { position as french } from '../fr/position.js';

export const position: typeof french = {
  title: 'Position',
  hint: 'The position is rounded to its UMAP cell (0.01°, about 1 km): your exact address is never stored.',
  lat: 'Latitude',
  lon: 'Longitude',
  locate: 'Use my position',
  locating: 'Finding the position…',
  umap: 'UMAP cell',
  sector: 'SECTOR',
  region: 'REGION',
  noPosition: 'No position yet.',
  badPosition:
    'Latitude within -90…90 and longitude within -180…180, in decimal degrees (e.g. 43.60 and 1.44).',
  problems: {
    unsupported: 'This browser gives no position: type the coordinates.',
    denied: 'Access to the position was refused: type the coordinates.',
    unavailable: 'Position unavailable: type the coordinates.',
    timeout: 'The position did not come in time: try again or type the coordinates.',
  },
};
