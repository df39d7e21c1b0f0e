import type { ParcelAnalysisT, ParcelRing } from '@dchub/core';
import { attribution, SYNTHETIC_NOTICE } from '../labels.js';
import { round } from '../rng.js';

/** WGS84 semi-major axis, metres. */
export const EARTH_RADIUS_M = 6_378_137;
export const SQ_M_PER_ACRE = 4046.8564224;
const rad = (d: number) => (d * Math.PI) / 180;

/** Geodesic spherical-excess area of a ring of `[lng, lat]` points, square metres. */
export function ringAreaM2(ring: ParcelRing): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [lon1, lat1] = ring[i];
    const [lon2, lat2] = ring[(i + 1) % ring.length];
    sum += rad(lon2 - lon1) * (2 + Math.sin(rad(lat1)) + Math.sin(rad(lat2)));
  }
  return Math.abs((sum * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** Planar-shoelace centroid on `[lng, lat]`, the vertex mean when the signed area is below 1e-12. */
export function ringCentroid(ring: ParcelRing): { lat: number; lng: number; planarArea: number } {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    const cross = x1 * y2 - x2 * y1;
    a += cross;
    cx += (x1 + x2) * cross;
    cy += (y1 + y2) * cross;
  }
  a /= 2;
  if (Math.abs(a) < 1e-12) {
    const n = ring.length;
    return { lng: ring.reduce((s, p) => s + p[0], 0) / n, lat: ring.reduce((s, p) => s + p[1], 0) / n, planarArea: 0 };
  }
  return { lng: cx / (6 * a), lat: cy / (6 * a), planarArea: Math.abs(a) };
}

export const PARCEL_NOTE =
  'Pure computation over the caller-supplied polygon: nothing is stored and DC Hub holds no parcel boundaries of its own. ' +
  'Acreage is geodesic (spherical excess, R = 6,378,137 m); representative_point is the planar centroid of the largest member, ' +
  'never the multi-part centre. Pass site_evaluation_handoff.analyze_site to /api/site-score. ' +
  SYNTHETIC_NOTICE;

export function measureParcel(rings: ParcelRing[], capacityMw?: number): ParcelAnalysisT {
  const members = rings.map((ring) => {
    const m2 = ringAreaM2(ring);
    const c = ringCentroid(ring);
    return { m2, centroid: { lat: round(c.lat, 6), lng: round(c.lng, 6) } };
  });
  // Largest member by geodesic area; the first one wins ties.
  let largest = members[0];
  for (const m of members) if (m.m2 > largest.m2) largest = m;
  const point = largest.centroid;
  const totalM2 = members.reduce((s, m) => s + m.m2, 0);
  return {
    _entity: 'parcel_analysis',
    ok: true,
    representative_point: point,
    total_acres: round(totalM2 / SQ_M_PER_ACRE, 2),
    total_sq_m: round(totalM2, 1),
    member_count: members.length,
    contiguous: members.length === 1,
    members: members.map((m) => ({ acres: round(m.m2 / SQ_M_PER_ACRE, 2), centroid: m.centroid })),
    site_evaluation_handoff: {
      analyze_site: {
        lat: point.lat,
        lon: point.lng,
        ...(capacityMw !== undefined ? { capacity_mw: capacityMw } : {}),
        include_risk: true,
        include_fiber: true,
      },
      get_water_risk: { lat: point.lat, lng: point.lng },
    },
    data_basis: {
      geometry_source: 'caller-supplied WGS84 GeoJSON',
      area_method: 'geodesic spherical-excess — measured, not modeled',
      centroid_method: 'planar shoelace of the largest-area member',
      positional_error_added_by_dchub_m: 0,
    },
    ...attribution(),
    note: PARCEL_NOTE,
  };
}
