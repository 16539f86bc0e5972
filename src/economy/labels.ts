import { pageLabels, type Language } from '../../pages/labels/index.js';
import type { Catalogue } from '../../pages/labels/types.js';
import type { PartType } from './society.js';

/** The economy pages' texts live in the catalogues beside the pages (pages/labels/<lang>/economy.ts). */
export type EconomyLabels = Catalogue['economy'];

export const PART_ICONS: Record<PartType, string> = {
  constellation: '🌌',
  satellite: '🛰️',
  parts: '📜',
  other: '❔',
};

/** Typed so that a new PartType without a name in the catalogues fails to compile. */
export function economyLabels(lang: Language): EconomyLabels & { types: Record<PartType, string> } {
  return pageLabels(lang).economy;
}
