import { landStyle, type ChartTheme } from './layout.js';
import type { VegaLiteSpec } from './spec.js';

/**
 * Outlines drawn under the maps, shipped with core (never fetched): US states from us-atlas
 * (`states-10m.json`) and the world's countries from world-atlas (`countries-110m.json`), both ISC
 * (Mike Bostock), derived from the US Census Bureau's cartographic boundaries and Natural Earth.
 * Loaded on first use (bundlers keep them in a chunk of their own).
 */
export const GEO_NOTICE =
  'State outlines: us-atlas (ISC, © Mike Bostock; US Census Bureau cartographic boundaries). Country outlines: world-atlas (ISC, © Mike Bostock; Natural Earth).';

let states: Promise<unknown> | undefined;
let countries: Promise<unknown> | undefined;

/** The US states as TopoJSON (object `states`). */
export function usStatesTopology(): Promise<unknown> {
  states ??= import('us-atlas/states-10m.json', { with: { type: 'json' } }).then((m) => m.default);
  return states;
}

/** The world's countries as TopoJSON (object `countries`). */
export function worldTopology(): Promise<unknown> {
  countries ??= import('world-atlas/countries-110m.json', { with: { type: 'json' } }).then((m) => m.default);
  return countries;
}

/**
 * The layer under a map: the US states or the world's countries in the theme's land and border colours. Decorative
 * (`aria: false`): the points carry the meaning, the description says what the map shows.
 */
export async function outlinesLayer(feature: 'states' | 'countries', theme?: ChartTheme): Promise<VegaLiteSpec> {
  const values = await (feature === 'states' ? usStatesTopology() : worldTopology());
  return {
    data: { values, format: { type: 'topojson', feature } },
    mark: { type: 'geoshape', ...landStyle(theme), aria: false },
  };
}

/** Whether a point is drawn by the albersUsa projection (lower 48, Alaska, Hawaii); others fall off it. */
export function inAlbersUsa(lat: number, lon: number): boolean {
  const lower48 = lat >= 24 && lat <= 50 && lon >= -125.5 && lon <= -66;
  const alaska = lat >= 51 && lat <= 72 && (lon <= -129 || lon >= 172);
  const hawaii = lat >= 18.5 && lat <= 22.5 && lon >= -161 && lon <= -154;
  return lower48 || alaska || hawaii;
}
