/* global CustomFunctions */
import { formula } from './load';

/** A Feature wrapping a MultiPolygon: object, geometry, coordinates, polygon, ring, position, number. */
const MAX_GEOJSON_DEPTH = 8;

/**
 * How deep the value nests (without recursion, so a hostile value cannot exhaust the stack).
 * TODO(core): analyzeParcel / readParcelGeometry should refuse such input itself with a
 * ValidationError; it overflows the stack today.
 */
function nesting(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > 1000) return deepest;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * Parcel analysis of a GeoJSON polygon: acreage, representative point, site hand-off.
 * @customfunction PARCEL
 * @helpurl https://dchub.cloud/docs/excel#parcel
 * @param geojson GeoJSON Polygon or MultiPolygon geometry, as text.
 * @param [capacity_mw] Target load in MW for the hand-off.
 * @param [field] Member to return, e.g. "total_acres" or "representative_point.lat".
 * @param invocation Invocation (set by Excel).
 * @returns Field/value rows, or the member named by field (one cell, or the rows of a group).
 */
export function parcel(geojson: any, capacity_mw: any, field: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return formula(async ({ NotCachedError, ValidationError, analyzeParcel, parcelTable, optional, requiredText, tableOr, callOptions, serviceClient }) => {
    let geometry: unknown;
    try {
      geometry = JSON.parse(requiredText('geojson', geojson));
    } catch (e) {
      if (e instanceof ValidationError) throw e;
      throw new ValidationError('geojson', 'is not valid JSON');
    }
    const depth = nesting(geometry);
    if (depth > MAX_GEOJSON_DEPTH) throw new ValidationError('geojson', `is nested ${depth > 1000 ? 'over 1,000' : depth} levels deep; a Polygon or MultiPolygon needs at most ${MAX_GEOJSON_DEPTH}`);
    const opts = callOptions(invocation);
    if (opts.cacheOnly) throw new NotCachedError('PARCEL');
    const p = await analyzeParcel(await serviceClient(), (geometry as { geometry?: unknown })?.geometry ?? geometry, optional(capacity_mw), opts);
    return tableOr(p, field, () => parcelTable(p));
  });
}
