import { z } from 'zod';
import { Envelope } from './envelope.js';
import { caseless, optionalNumber, showValue } from './params.js';

/** Refusal thresholds of the parcel analysis (absurd geometries are refused before any work). */
export const PARCEL_MAX_VERTICES = 10_000;
export const PARCEL_MAX_MEMBERS = 100;

/** One member polygon's outer ring as `[lng, lat]` pairs (closing point dropped). */
export type ParcelRing = Array<[number, number]>;

const show = (v: unknown): string => showValue(v);

/**
 * Reads a GeoJSON Polygon or MultiPolygon (type case-insensitive) into outer rings, or says which
 * field is wrong. Only each member's outer ring is used; a ring has at least 4 positions (a degenerate
 * one measures 0 acres, as a collinear one always has). Sizes are checked before coordinates are read,
 * so a huge geometry is refused quickly.
 */
export function readParcelGeometry(
  g: unknown,
): { rings: ParcelRing[] } | { path: (string | number)[]; message: string } {
  const fail = (path: (string | number)[], message: string) => ({ path, message });
  if (g === undefined || g === null)
    return fail([], 'is required: a GeoJSON Polygon or MultiPolygon with >=3-point outer rings');
  if (typeof g !== 'object' || Array.isArray(g)) return fail([], `must be a GeoJSON object, got ${show(g)}`);
  const obj = g as Record<string, unknown>;
  const type = typeof obj.type === 'string' ? obj.type.toLowerCase() : '';
  if (type !== 'polygon' && type !== 'multipolygon') {
    return fail(['type'], `must be Polygon or MultiPolygon, got ${show(obj.type)}`);
  }
  const coords = obj.coordinates;
  if (!Array.isArray(coords) || coords.length === 0) return fail(['coordinates'], 'must be a non-empty array');
  const polygons: unknown[] = type === 'polygon' ? [coords] : coords;
  if (polygons.length > PARCEL_MAX_MEMBERS) {
    return fail(['coordinates'], `has ${polygons.length} member polygons; at most ${PARCEL_MAX_MEMBERS} are accepted`);
  }
  // Count every vertex first (all rings, holes included) so an absurd geometry is refused at once.
  let vertices = 0;
  for (let i = 0; i < polygons.length; i++) {
    const poly = polygons[i];
    const base: (string | number)[] = type === 'polygon' ? ['coordinates'] : ['coordinates', i];
    if (!Array.isArray(poly) || poly.length === 0) return fail(base, 'must be a non-empty array of rings');
    for (const ring of poly) {
      if (!Array.isArray(ring)) return fail(base, 'must be an array of rings (arrays of [lng, lat])');
      vertices += ring.length;
    }
    if (vertices > PARCEL_MAX_VERTICES) {
      return fail(['coordinates'], `has more than ${PARCEL_MAX_VERTICES} vertices; simplify the geometry`);
    }
  }
  const rings: ParcelRing[] = [];
  for (let i = 0; i < polygons.length; i++) {
    const outer = (polygons[i] as unknown[])[0] as unknown[];
    const base: (string | number)[] = type === 'polygon' ? ['coordinates', 0] : ['coordinates', i, 0];
    const ring: ParcelRing = [];
    for (let j = 0; j < outer.length; j++) {
      const p = outer[j];
      if (!Array.isArray(p) || p.length < 2)
        return fail([...base, j], `must be a [lng, lat] pair, got ${show(JSON.stringify(p))}`);
      const [lng, lat] = p as unknown[];
      if (typeof lng !== 'number' || !Number.isFinite(lng))
        return fail([...base, j, 0], `longitude must be a number, got ${show(lng)}`);
      if (typeof lat !== 'number' || !Number.isFinite(lat))
        return fail([...base, j, 1], `latitude must be a number, got ${show(lat)}`);
      if (lng < -180 || lng > 180) return fail([...base, j, 0], `longitude must be between -180 and 180, got ${lng}`);
      if (lat < -90 || lat > 90) return fail([...base, j, 1], `latitude must be between -90 and 90, got ${lat}`);
      ring.push([lng, lat]);
    }
    // A linear ring has four positions at least (RFC 7946 §3.1.6); the closing one (repeating the first) is dropped.
    if (outer.length < 4) return fail(base, `a linear ring needs at least 4 positions, got ${outer.length}`);
    if (ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1]) ring.pop();
    rings.push(ring);
  }
  return { rings };
}

/**
 * The accepted geometry's shape, as documented (the reader above adds what JSON Schema cannot say: the vertex total).
 */
/** `[lng, lat]` or `[lng, lat, elevation]`: GeoJSON positions carry two or three numbers (RFC 7946 §3.1.1). */
const Position = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().optional()])
  .meta({ description: '[lng, lat] or [lng, lat, elevation]' });
// A linear ring closes on its first point: four positions at least (RFC 7946 §3.1.6). The reader says what is
// wrong in words; the schema says the count. PARCEL_MAX_VERTICES bounds every ring together, which the reader checks:
// stated on one ring it is not the rule, and it makes schemathesis build multi-megabyte bodies (101 members of
// 10,000-position rings) that the 1 MB body limit refuses with a 413 its default checks do not count as a rejection.
const Ring = z.array(Position).meta({ minItems: 4 });
const PolygonRings = z.array(Ring).min(1);
export const ParcelGeometryShape = z.union([
  z.looseObject({ type: z.string().regex(new RegExp(`^${caseless('Polygon')}$`)), coordinates: PolygonRings }),
  z.looseObject({
    type: z.string().regex(new RegExp(`^${caseless('MultiPolygon')}$`)),
    coordinates: z.array(PolygonRings).min(1).max(PARCEL_MAX_MEMBERS),
  }),
]);
export type ParcelGeometryInput = z.input<typeof ParcelGeometryShape>;

/** Read first (messages naming the field, sizes before coordinates), then held to the documented shape. */
const geometryParam = z
  .pipe(
    z.transform((v: ParcelGeometryInput, ctx) => {
      const r = readParcelGeometry(v);
      if ('rings' in r) return v;
      ctx.issues.push({ code: 'custom', message: r.message, path: r.path, input: v });
      return z.NEVER;
    }),
    ParcelGeometryShape.transform((v) => (readParcelGeometry(v) as { rings: ParcelRing[] }).rings),
  )
  .meta({
    description:
      'GeoJSON Polygon or MultiPolygon (type in any case), coordinates [lng, lat]; outer rings only; each ring >= 4 ' +
      'positions; at most 10,000 vertices in all',
  });

/** Request body of `POST /api/v1/analyze-parcel` (spec §4.3). */
export const ParcelRequest = z.object({
  geometry: geometryParam,
  capacity_mw: optionalNumber({ gt: 0, description: 'Target load in MW, passed into the handoff' }),
});

export const LatLng = z.looseObject({ lat: z.number(), lng: z.number() });

/** `parcel_analysis` envelope (spec §2.5; reference notes §2.22). */
export const ParcelAnalysis = Envelope.extend({
  _entity: z.literal('parcel_analysis'),
  ok: z.literal(true),
  representative_point: LatLng,
  total_acres: z.number(),
  member_count: z.number().int(),
  contiguous: z.boolean(),
  members: z.array(z.looseObject({ acres: z.number(), centroid: LatLng })),
  site_evaluation_handoff: z.looseObject({
    analyze_site: z.looseObject({
      lat: z.number(),
      lon: z.number(),
      capacity_mw: z.number().optional(),
      include_risk: z.boolean(),
      include_fiber: z.boolean(),
    }),
    get_water_risk: z.looseObject({ lat: z.number(), lng: z.number() }),
  }),
  data_basis: z.looseObject({
    geometry_source: z.string(),
    area_method: z.string(),
    centroid_method: z.string(),
    positional_error_added_by_dchub_m: z.number(),
  }),
  note: z.string().optional(),
});

export type ParcelRequestT = z.output<typeof ParcelRequest>;
export type ParcelAnalysisT = z.infer<typeof ParcelAnalysis>;

/** What a caller gives `analyze-parcel`: the geometry as GeoJSON text, a value or a Feature, and the target load. */
export const ParcelArgs = z.object({
  geometry: z.unknown().meta({
    description: 'GeoJSON Polygon or MultiPolygon, its text, or a Feature holding one (its properties are not sent)',
  }),
  capacity_mw: optionalNumber({ gt: 0, description: 'Target load in MW, passed into the handoff' }),
});
