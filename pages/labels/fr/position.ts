export const position = {
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
