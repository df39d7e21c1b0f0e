/* global CustomFunctions */
import { formula } from './load';

/**
 * Parcel analysis of a GeoJSON polygon: acreage, representative point, site hand-off.
 * @customfunction PARCEL
 * @param geojson GeoJSON Polygon or MultiPolygon (type in any case), coordinates [lng, lat]; outer rings only; each
 * ring >= 4 positions; at most 10,000 vertices in all. In Excel: the geometry, or a Feature holding it, as text.
 * @param [capacity_mw] Target load in MW, passed into the handoff.
 * @param [field] Member to return, e.g. "total_acres" or "representative_point.lat".
 * @param invocation Invocation (set by Excel).
 * @returns Field/value rows, or the member named by field (one cell, or the rows of a group).
 * @requiresAddress
 */
export function parcel(
  geojson: unknown,
  capacity_mw: unknown,
  field: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(async (e) => {
    const { NotCachedError, analyzeParcel, parcelGeometry, parcelTable, optional, requiredText, tableOr } = e;
    const { callOptions, serviceClient, oneCellAt } = e;
    return oneCellAt(invocation, 'PARCEL', [String(geojson).slice(0, 60), capacity_mw, field], async (at) => {
      // Text → geometry (a Feature unwrapped), refusing bad JSON and deep nesting: core, named geojson.
      const geometry = parcelGeometry(requiredText('geojson', geojson), 'geojson');
      const opts = callOptions(invocation);
      if (opts.cacheOnly) throw new NotCachedError('PARCEL');
      const p = await analyzeParcel(await serviceClient(), geometry, optional(capacity_mw) as number | undefined, opts);
      return tableOr(p, field, () => parcelTable(p), at);
    });
  });
}
