import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, ParcelAnalysis } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../src/server.js';
import { PROFILES } from '../src/presenters/index.js';

// Profile-independent rules: the same assertions hold for the spec and the real-service profile.
describe.each(PROFILES)('%s profile', (profile) => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'parcel',
      now: '2026-11-21T12:00:00Z',
      keys: 'free=f1,pro=p1',
      controls: true,
    });
  });
  afterAll(() => sb?.close());

  // A hang guard, not a speed goal: npm run bench measures how fast hostile bodies are refused.
  const HANG_MS = 10_000;
  const post = async (body: unknown, key: string | null = 'p1') => {
    const res = await fetch(`${sb.url}/api/v1/analyze-parcel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { 'X-API-Key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const analyze = async (body: unknown) => {
    const r = await post(body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return ParcelAnalysis.parse(r.body);
  };
  const refused = async (body: unknown, param: RegExp) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    const e = ErrorBody.parse(r.body);
    expect(e.ok).toBe(false);
    expect(e._entity).toBe('error');
    expect(e.error).toMatch(param);
    return e;
  };

  // Independent statement of the spherical-excess area (reference notes §2.22), one term at a time.
  const R = 6378137;
  const d2r = Math.PI / 180;
  function areaM2(ring: number[][]): number {
    let s = 0;
    for (let i = 0; i < ring.length - 1; i++) {
      const [lon1, lat1] = ring[i];
      const [lon2, lat2] = ring[i + 1];
      s += (lon2 - lon1) * d2r * (2 + Math.sin(lat1 * d2r) + Math.sin(lat2 * d2r));
    }
    return Math.abs((s * R * R) / 2);
  }
  const square = (lng: number, lat: number, d: number) => [
    [lng, lat],
    [lng + d, lat],
    [lng + d, lat + d],
    [lng, lat + d],
    [lng, lat],
  ];

  describe('POST /api/v1/analyze-parcel — math', () => {
    it('positions are two or three numbers (RFC 7946): five or six are refused, an elevation is kept out of the area', async () => {
      const ring = (extra: number[]) => [
        [-97, 32, ...extra],
        [-97, 32.01, ...extra],
        [-96.99, 32.01, ...extra],
        [-97, 32, ...extra],
      ];
      for (const extra of [
        [1, 2, 3],
        [1, 2, 3, 4],
      ])
        await refused({ geometry: { type: 'Polygon', coordinates: [ring(extra)] } }, /^geometry/);
      const flat = await analyze({ geometry: { type: 'Polygon', coordinates: [ring([])] } });
      const high = await analyze({ geometry: { type: 'Polygon', coordinates: [ring([120])] } });
      expect(high.total_acres).toBe(flat.total_acres);
    });

    it('a 0.01° square at the equator is about 1,239,000 m² (306 acres)', async () => {
      const ring = square(0, 0, 0.01);
      const r = await analyze({ geometry: { type: 'Polygon', coordinates: [ring] } });
      // By hand: the only non-zero terms are the two east-west edges:
      // (0.01·π/180)·(2 + 0 + 0) − (0.01·π/180)·(2 + 2·sin(0.01°))... and |Σ|·R²/2 ≈ (1113.195 m)².
      const m2 = areaM2(ring);
      expect(m2).toBeGreaterThan(1_239_000);
      expect(m2).toBeLessThan(1_239_400);
      expect(r.total_acres).toBeCloseTo(m2 / 4046.8564224, 2);
      expect(r.total_acres).toBeCloseTo(306.21, 2);
      expect(r.representative_point).toEqual({ lat: 0.005, lng: 0.005 });
      expect(r.member_count).toBe(1);
      expect(r.contiguous).toBe(true);
      expect(r.members).toEqual([{ acres: 306.21, centroid: { lat: 0.005, lng: 0.005 } }]);
      expect(r._entity).toBe('parcel_analysis');
      expect(r.citation?.license).toBe('CC-BY-4.0');
      expect(r.note).toMatch(/synthetic/i);
    });

    it('a parcel near Ashburn: acreage from the formula, handoff carries capacity_mw', async () => {
      const ring = [
        [-77.49, 39.02],
        [-77.485, 39.02],
        [-77.485, 39.0245],
        [-77.49, 39.0245],
        [-77.49, 39.02],
      ];
      const r = await analyze({ geometry: { type: 'polygon', coordinates: [ring] }, capacity_mw: 100 });
      expect(r.total_acres).toBeCloseTo(Math.round((areaM2(ring) / 4046.8564224) * 100) / 100, 2);
      expect(r.representative_point).toEqual({ lat: 39.02225, lng: -77.4875 });
      expect(r.site_evaluation_handoff.analyze_site).toEqual({
        lat: 39.02225,
        lon: -77.4875,
        capacity_mw: 100,
        include_risk: true,
        include_fiber: true,
      });
      expect(r.site_evaluation_handoff.get_water_risk).toEqual({ lat: 39.02225, lng: -77.4875 });
      expect(r.data_basis.positional_error_added_by_dchub_m).toBe(0);
    });

    it('the handoff omits capacity_mw when not given, and works on /api/site-score', async () => {
      const r = await analyze({ geometry: { type: 'Polygon', coordinates: [square(-96.8, 32.77, 0.004)] } });
      expect(r.site_evaluation_handoff.analyze_site).not.toHaveProperty('capacity_mw');
      const { lat, lon } = r.site_evaluation_handoff.analyze_site;
      const site = await fetch(`${sb.url}/api/site-score?lat=${lat}&lon=${lon}`, { headers: { 'X-API-Key': 'p1' } });
      expect(site.status).toBe(200);
    });

    it("MultiPolygon: representative point is the larger member's centroid; not contiguous", async () => {
      const small = square(10, 10, 0.001);
      const big = square(10.1, 10.1, 0.004);
      const r = await analyze({ geometry: { type: 'MultiPolygon', coordinates: [[small], [big]] } });
      expect(r.member_count).toBe(2);
      expect(r.contiguous).toBe(false);
      expect(r.representative_point).toEqual({ lat: 10.102, lng: 10.102 });
      expect(r.members.map((m) => m.centroid)).toEqual([
        { lat: 10.0005, lng: 10.0005 },
        { lat: 10.102, lng: 10.102 },
      ]);
      const acres = [small, big].map((ring) => areaM2(ring) / 4046.8564224);
      expect(r.members[0].acres).toBeCloseTo(acres[0], 2);
      expect(r.members[1].acres).toBeCloseTo(acres[1], 2);
      expect(r.total_acres).toBeCloseTo(acres[0] + acres[1], 1);
      // Never the multi-part centre.
      expect(r.representative_point.lat).not.toBeCloseTo(10.05, 2);
    });

    it('uses outer rings only (holes are ignored) and accepts open rings', async () => {
      const outer = square(0, 0, 0.01);
      const hole = square(0.002, 0.002, 0.002);
      const withHole = await analyze({ geometry: { type: 'Polygon', coordinates: [outer, hole] } });
      const open = await analyze({ geometry: { type: 'Polygon', coordinates: [outer.slice(0, 4)] } });
      expect(withHole.total_acres).toBe(306.21);
      expect(open.total_acres).toBe(306.21);
    });

    it('falls back to the vertex mean for a degenerate (collinear) ring', async () => {
      const r = await analyze({
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [2, 2],
              [0, 0],
            ],
          ],
        },
      });
      expect(r.representative_point).toEqual({ lat: 1, lng: 1 });
      expect(r.total_acres).toBeGreaterThanOrEqual(0);
    });

    it('is public: works without a key', async () => {
      const r = await post({ geometry: { type: 'Polygon', coordinates: [square(0, 0, 0.01)] } }, null);
      expect(r.status).toBe(200);
    });
  });

  describe('POST /api/v1/analyze-parcel — refusals name the field', () => {
    it('missing geometry', () => refused({}, /^geometry: is required/));
    it('wrong type', () =>
      refused(
        { geometry: { type: 'Point', coordinates: [0, 0] } },
        /^geometry\.type: must be Polygon or MultiPolygon/,
      ));
    it('latitude out of range', () =>
      refused(
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 95],
                [1, 0],
                [0, 0],
              ],
            ],
          },
        },
        /^geometry\.coordinates\.0\.1\.1: latitude must be between -90 and 90/,
      ));
    it('longitude out of range', () =>
      refused(
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [181, 1],
                [1, 0],
                [0, 0],
              ],
            ],
          },
        },
        /^geometry\.coordinates\.0\.1\.0: longitude must be between -180 and 180/,
      ));
    it('non-number coordinate', () =>
      refused(
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                ['1', 1],
                [1, 0],
                [0, 0],
              ],
            ],
          },
        },
        /^geometry\.coordinates\.0\.1\.0: longitude must be a number/,
      ));
    it('a ring of fewer than 4 positions', () =>
      refused(
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          },
        },
        /^geometry\.coordinates\.0: a linear ring needs at least 4 positions, got 3/,
      ));
    it('too few points in a MultiPolygon member names the member', () =>
      refused(
        {
          geometry: {
            type: 'MultiPolygon',
            coordinates: [
              [square(0, 0, 1)],
              [
                [
                  [0, 0],
                  [1, 1],
                ],
              ],
            ],
          },
        },
        /^geometry\.coordinates\.1\.0: /,
      ));
    it('capacity_mw must be a positive number', () =>
      refused(
        { geometry: { type: 'Polygon', coordinates: [square(0, 0, 0.01)] }, capacity_mw: -5 },
        /^capacity_mw: must be greater than 0/,
      ));
    it('invalid JSON', () => refused('{"geometry":', /^body: must be valid JSON/));

    it('an absurd vertex count is refused (its speed: npm run bench)', async () => {
      const ring: number[][] = [];
      for (let i = 0; i < 60_000; i++) ring.push([(i % 360) - 180 + i * 1e-6, ((i * 7) % 170) - 85]);
      const body = JSON.stringify({ geometry: { type: 'Polygon', coordinates: [ring] } });
      expect(Buffer.byteLength(body)).toBeLessThan(1_000_000);
      const t0 = performance.now();
      const e = await refused(body, /^geometry\.coordinates: has more than 10000 vertices/);
      expect(performance.now() - t0).toBeLessThan(HANG_MS);
      expect(e.param).toBe('geometry.coordinates');
    });

    it('more than 100 members is refused (its speed: npm run bench)', async () => {
      const members = Array.from({ length: 150 }, (_, i) => [square(i * 0.01, 0, 0.001)]);
      const t0 = performance.now();
      await refused(
        { geometry: { type: 'MultiPolygon', coordinates: members } },
        /^geometry\.coordinates: has 150 member polygons; at most 100/,
      );
      expect(performance.now() - t0).toBeLessThan(HANG_MS);
    });

    it('a body over 1 MB is 413', async () => {
      const ring = Array.from({ length: 80_000 }, (_, i) => [-77.123456789 + i * 1e-9, 39.123456789]);
      const r = await post({ geometry: { type: 'Polygon', coordinates: [ring] } });
      expect(r.status).toBe(413);
      expect(r.body._entity).toBe('error');
    });
  });
});
