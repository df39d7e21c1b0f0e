import { nestingDepth } from './args.js';
import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { ValidationError } from './errors.js';
import { ParcelAnalysis, ParcelRequest, type ParcelAnalysisT } from './schemas/parcel.js';
import { flattenPaths, type Table } from './table.js';
import { parseParams } from './validate.js';

export const PARCEL_PATH = ENDPOINTS.analyzeParcel.path;

/**
 * A MultiPolygon nests 5 deep (object, coordinates, polygon, ring, position); 8 leaves room for members such as `crs`.
 */
export const PARCEL_MAX_NESTING = 8;

/**
 * The geometry of what a user gives for a parcel: GeoJSON text or a value, a Feature's `geometry`
 * unwrapped (its properties are not sent). Refuses (naming `name`) text that is not JSON and a
 * geometry nested deeper than any Polygon or MultiPolygon (`PARCEL_MAX_NESTING`), before anything
 * walks it.
 */
export function parcelGeometry(input: unknown, name = 'geometry'): unknown {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new ValidationError(name, 'is not valid JSON');
    }
  }
  const wrapped =
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.prototype.hasOwnProperty.call(value, 'geometry');
  const geometry = wrapped ? (value as { geometry: unknown }).geometry : value;
  const depth = nestingDepth(geometry);
  if (depth > PARCEL_MAX_NESTING) {
    throw new ValidationError(
      name,
      `is nested ${depth > 1000 ? 'over 1,000' : depth} levels deep; a Polygon or MultiPolygon needs at most ${PARCEL_MAX_NESTING}`,
    );
  }
  return geometry;
}

/**
 * POST /api/v1/analyze-parcel with a GeoJSON Polygon or MultiPolygon (spec §4.3), as a value, a
 * Feature or GeoJSON text (parcelGeometry).
 */
export async function analyzeParcel(
  client: DchubClient,
  geometry: unknown,
  capacity_mw?: number | null,
  opts: CallOptions = {},
): Promise<ParcelAnalysisT> {
  const body = {
    geometry: parcelGeometry(geometry),
    ...(capacity_mw !== undefined && capacity_mw !== null ? { capacity_mw } : {}),
  };
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
