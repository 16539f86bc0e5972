import type { Language } from './language.js';

/** Texts of the position block shared by the registration and geo-message pages. */
export interface PositionLabels {
  title: string;
  hint: string;
  lat: string;
  lon: string;
  locate: string;
  locating: string;
  umap: string;
  sector: string;
  region: string;
  noPosition: string;
  badPosition: string;
  problems: { unsupported: string; denied: string; unavailable: string; timeout: string };
}

const fr: PositionLabels = {
  title: 'Position',
  hint: 'La position est arrondie à la case UMAP (0,01°, environ 1 km) : votre adresse exacte n’est jamais enregistrée.',
  lat: 'Latitude',
  lon: 'Longitude',
  locate: 'Utiliser ma position',
  locating: 'Recherche de la position…',
  umap: 'Case UMAP',
  sector: 'SECTOR',
  region: 'REGION',
  noPosition: 'Aucune position pour l’instant.',
  badPosition:
    'Latitude entre -90 et 90 et longitude entre -180 et 180, en degrés décimaux (ex. 43.60 et 1.44).',
  problems: {
    unsupported: 'Ce navigateur ne donne pas de position : tapez les coordonnées.',
    denied: 'Accès à la position refusé : tapez les coordonnées.',
    unavailable: 'Position indisponible : tapez les coordonnées.',
    timeout: 'La position n’est pas arrivée à temps : réessayez ou tapez les coordonnées.',
  },
};

const en: PositionLabels = {
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

export function positionLabels(lang: Language): PositionLabels {
  return lang === 'fr' ? fr : en;
}
