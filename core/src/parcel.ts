import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { tableFor } from './resource.js';
import { fetchData } from './resource-call.js';
import type { ParcelAnalysisT } from './schemas/parcel.js';

export { PARCEL_MAX_NESTING, parcelGeometry } from './resources/sites.js';

export const PARCEL_PATH = ENDPOINTS.analyzeParcel.path;

/**
 * POST /api/v1/analyze-parcel with a GeoJSON Polygon or MultiPolygon (spec §4.3), as a value, a
 * Feature or GeoJSON text (parcelGeometry).
 */
export const analyzeParcel = (
  client: DchubClient,
  geometry: unknown,
  capacity_mw?: number | null,
  opts: CallOptions = {},
): Promise<ParcelAnalysisT> => fetchData(client, ENDPOINTS.analyzeParcel, { geometry, capacity_mw }, opts);

/** Field/value rows of a parcel analysis (members flattened as members.0.acres, ...); the service's note its note. */
export const parcelTable = /* @__PURE__ */ tableFor(ENDPOINTS.analyzeParcel);
