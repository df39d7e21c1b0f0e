import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { ParcelAnalysis, ParcelRequest, type ParcelAnalysisT } from './schemas/parcel.js';
import { flattenPaths, type Table } from './table.js';
import { parseParams } from './validate.js';

export const PARCEL_PATH = ENDPOINTS.analyzeParcel.path;

/** POST /api/v1/analyze-parcel with a GeoJSON Polygon or MultiPolygon (spec §4.3). */
export async function analyzeParcel(client: DchubClient, geometry: unknown, capacity_mw?: number | null, opts: CallOptions = {}): Promise<ParcelAnalysisT> {
  const body = { geometry, ...(capacity_mw !== undefined && capacity_mw !== null ? { capacity_mw } : {}) };
  parseParams(ParcelRequest, body);
  return client.postJson(PARCEL_PATH, body, ParcelAnalysis, { ...opts, cacheable: true });
}

/** Field/value rows of a parcel analysis (members flattened as members.0.acres, ...). */
export function parcelTable(p: ParcelAnalysisT): Table {
  const { members, ...rest } = p;
  const rows = flattenPaths(rest).filter(([k]) => !k.startsWith('_') && k !== 'note');
  members.forEach((m, i) => rows.push(...flattenPaths(m, `members.${i}`)));
  return { columns: ['field', 'value'], rows: rows.map(([k, v]) => [k, v]), citation: p._cite };
}
