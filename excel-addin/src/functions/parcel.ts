/* global CustomFunctions */
import { NotCachedError, ValidationError, analyzeParcel, parcelTable } from '@dchub/core';
import { optional, requiredText } from './args';
import { tableOr } from './fields';
import { callOptions, cellResult, serviceClient } from './service';

/**
 * Parcel analysis of a GeoJSON polygon: acreage, representative point, site hand-off.
 * @customfunction PARCEL
 * @helpurl https://dchub.cloud/docs/excel#parcel
 * @param geojson GeoJSON Polygon or MultiPolygon geometry, as text.
 * @param [capacity_mw] Target load in MW for the hand-off.
 * @param [field] Member to return, e.g. "total_acres" or "representative_point.lat".
 * @param invocation Invocation (set by Excel).
 * @returns Field/value rows, or the member named by field.
 */
export function parcel(geojson: any, capacity_mw: any, field: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  return cellResult(async () => {
    let geometry: unknown;
    try {
      geometry = JSON.parse(requiredText('geojson', geojson));
    } catch (e) {
      if (e instanceof ValidationError) throw e;
      throw new ValidationError('geojson', 'is not valid JSON');
    }
    const opts = callOptions(invocation);
    if (opts.cacheOnly) throw new NotCachedError('PARCEL');
    const p = await analyzeParcel(await serviceClient(), (geometry as { geometry?: unknown })?.geometry ?? geometry, optional(capacity_mw), opts);
    return tableOr(p, field, () => parcelTable(p));
  });
}
