import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, RankedSites, type RankedSitesT } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../src/server.js';
import { PROFILES } from '../src/presenters/index.js';

// Profile-independent rules: the same assertions hold for the spec and the real-service profile.
describe.each(PROFILES)('%s profile', (profile) => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'ranking',
      now: '2026-11-21T12:00:00Z',
      keys: 'free=f1,pro=p1,enterprise=e1',
      controls: true,
    });
  });
  afterAll(() => sb?.close());

  const post = async (body: unknown, key = 'e1') => {
    const res = await fetch(`${sb.url}/api/v1/rank-sites`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const rank = async (body: unknown): Promise<RankedSitesT> => {
    const r = await post(body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return RankedSites.parse(r.body);
  };
  const refused = async (body: unknown, message: RegExp) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    const e = ErrorBody.parse(r.body);
    expect(e).toMatchObject({ ok: false, _entity: 'error' });
    expect(e.error).toMatch(message);
  };

  const SITES = [
    { id: 'a', lat: 39.0, lng: -77.5, risk_resilience: 72, fiber_km: 3.2, capacity_mw: 200 },
    { id: 'b', lat: 32.8, lng: -96.8, risk_resilience: 60, fiber_km: 11, capacity_mw: 400 },
    { id: 'c', lat: 33.4, lon: -112.1, risk_resilience: 66, fiber_km: 7.1, capacity_mw: 100 },
    { id: 'd', lat: 41.2, lng: -95.9, risk_resilience: 70, capacity_mw: 300 },
  ];

  describe('POST /api/v1/rank-sites — relative (default)', () => {
    it('min-max per objective, weighted by |w|, 1 dp; top_k defaults to 3', async () => {
      const r = await rank({ candidates: SITES, objectives: { risk_resilience: 2, fiber_km: -1 } });
      expect(r.scoring_mode).toBe('relative');
      expect(r.count_ranked).toBe(4);
      expect(r.count_returned).toBe(3);
      expect(r.results).toHaveLength(3);
      expect(r.normalization_basis).toEqual({
        risk_resilience: { min: 60, max: 72, direction: 'maximize' },
        fiber_km: { min: 3.2, max: 11, direction: 'minimize' },
      });
      // By hand: a = (2·100 + 1·100)/3 = 100; d = (2·83.33)/2 = 83.3 (carries risk only);
      // c = (2·50 + 1·(11−7.1)/7.8·100)/3 = (100 + 50)/3 = 50; b = (0 + 0)/3 = 0.
      expect(r.results.map((x) => [x.id, x.objective_score, x.rank])).toEqual([
        ['a', 100, 1],
        ['d', 83.3, 2],
        ['c', 50, 3],
      ]);
      expect(r.results[1].missing_objectives).toEqual(['fiber_km']);
      expect(r.results[0].normalized).toEqual({ risk_resilience: 100, fiber_km: 100 });
      expect(r.results[2].normalized).toEqual({ risk_resilience: 50, fiber_km: 50 });
      // Candidate fields are carried through (lon as given).
      expect(r.results[2]).toMatchObject({ lat: 33.4, lon: -112.1, capacity_mw: 100 });
      expect(r.objective_status).toEqual([
        { objective: 'risk_resilience', status: 'validated', basis: 'relative_in_set' },
        { objective: 'fiber_km', status: 'validated', basis: 'relative_in_set' },
      ]);
      expect(r).not.toHaveProperty('baseline');
      expect(r._cite).toMatch(/CC-BY-4.0/);
    });

    it('top_k limits the results; count_returned = min(top_k, count_ranked)', async () => {
      const one = await rank({ candidates: SITES, objectives: { capacity_mw: 1 }, top_k: 1 });
      expect(one.results.map((x) => x.id)).toEqual(['b']);
      const all = await rank({ candidates: SITES, objectives: { capacity_mw: 1 }, top_k: 50 });
      expect(all.count_returned).toBe(4);
      expect(all.results.map((x) => x.rank)).toEqual([1, 2, 3, 4]);
    });

    it('ties keep input order; a span of 0 scores everyone 100', async () => {
      const r = await rank({
        candidates: [
          { id: 'x', m: 5 },
          { id: 'y', m: 5 },
          { id: 'z', m: 5 },
        ],
        objectives: { m: 1 },
        top_k: 3,
      });
      expect(r.results.map((x) => [x.id, x.objective_score])).toEqual([
        ['x', 100],
        ['y', 100],
        ['z', 100],
      ]);
    });

    it('a candidate carrying no objective scores null and ranks last', async () => {
      const r = await rank({
        candidates: [{ id: 'none' }, { id: 'lo', m: 1 }, { id: 'hi', m: 2 }],
        objectives: { m: 1 },
        top_k: 3,
      });
      expect(r.results.map((x) => [x.id, x.objective_score])).toEqual([
        ['hi', 100],
        ['lo', 0],
        ['none', null],
      ]);
    });

    it('nested {id, fields} candidates are flattened (top-level keys win) and handoffs are carried through', async () => {
      const handoff = {
        analyze_site: { lat: 39, lon: -77.5, include_risk: true, include_fiber: true },
        get_water_risk: { lat: 39, lng: -77.5 },
      };
      const r = await rank({
        candidates: [
          { id: 'n1', fields: { score: 10, id: 'ignored' }, site_evaluation_handoff: handoff },
          { id: 'n2', fields: { score: 20 } },
        ],
        objectives: { score: 1 },
      });
      expect(r.results[0]).toMatchObject({ id: 'n2', score: 20 });
      expect(r.results[1]).toMatchObject({ id: 'n1', score: 10, site_evaluation_handoff: handoff });
    });

    it('any finite weight and value scores as a small one would: nothing overflows to null', async () => {
      const r = await rank({
        candidates: [
          { id: 'far', x: -1.7e308, y: 1 },
          { id: 'near', x: 1.7e308, y: 2 },
        ],
        objectives: { x: 1.7e308, y: -5e-324 },
      });
      // x spans the whole double range; the tiny y weight counts for nothing beside it.
      expect(r.results.map((s) => [s.id, s.objective_score, s.normalized])).toEqual([
        ['near', 100, { x: 100, y: 0 }],
        ['far', 0, { x: 0, y: 100 }],
      ]);
    });
  });

  describe('constraints fail closed (spec §7 rule 5)', () => {
    it('drops candidates missing or outside a constrained field', async () => {
      const r = await rank({
        candidates: [...SITES, { id: 'e', fiber_km: 'n/a', risk_resilience: 99 }],
        objectives: { risk_resilience: 1 },
        constraints: { fiber_km: { max: 10 } },
        top_k: 10,
      });
      // b (11 km) is out of range; d (missing) and e (non-numeric) fail closed.
      expect(r.results.map((x) => x.id)).toEqual(['a', 'c']);
      expect(r.dropped_by_constraints).toBe(3);
      expect(r.count_ranked).toBe(2);
      expect(r.constraint_coverage).toEqual({ fiber_km: 'validated' });
      // Normalization runs over the survivors only.
      expect(r.normalization_basis.risk_resilience).toMatchObject({ min: 66, max: 72 });
    });

    it('min and max together; a field nobody carries is unavailable and drops everyone', async () => {
      const r = await rank({
        candidates: SITES,
        objectives: { capacity_mw: 1 },
        constraints: { capacity_mw: { min: 150, max: 350 } },
        top_k: 10,
      });
      expect(r.results.map((x) => x.id)).toEqual(['d', 'a']);
      const none = await rank({
        candidates: SITES,
        objectives: { capacity_mw: 1 },
        constraints: { water_score: { min: 1 } },
      });
      expect(none.constraint_coverage).toEqual({ water_score: 'unavailable' });
      expect(none.count_ranked).toBe(0);
      expect(none.results).toEqual([]);
      expect(none.objective_status[0]).toMatchObject({ objective: 'capacity_mw', status: 'unavailable' });
    });
  });

  describe('absolute mode', () => {
    it('clamps the value to 0-100, 100 - v when minimizing', async () => {
      const r = await rank({
        candidates: [
          { id: 'p', s: 150, risk: 30 },
          { id: 'q', s: 40, risk: -5 },
          { id: 'r', s: 80, risk: 10 },
        ],
        objectives: { s: 1, risk: -1 },
        absolute: true,
        top_k: 3,
      });
      expect(r.scoring_mode).toBe('absolute');
      // p and r tie at 85: input order decides.
      expect(r.results.map((x) => [x.id, x.normalized, x.objective_score])).toEqual([
        ['p', { s: 100, risk: 70 }, 85],
        ['r', { s: 80, risk: 90 }, 85],
        ['q', { s: 40, risk: 100 }, 70],
      ]);
      expect(r.normalization_basis.s).toEqual({ scale: '0-100 fixed', direction: 'maximize' });
      // Stable across runs: the same candidate scores the same in a different batch.
      const alone = await rank({
        candidates: [{ id: 'r', s: 80, risk: 10 }],
        objectives: { s: 1, risk: -1 },
        absolute: true,
      });
      expect(alone.results[0].objective_score).toBe(85);
    });
  });

  describe('percentile mode', () => {
    it('ranks against the viable-site baseline, with baseline meta and caveats', async () => {
      const r = await rank({
        candidates: [
          { id: 'near', fiber_km: 1, capacity_mw: 500, my_metric: 3 },
          { id: 'far', fiber_km: 500, capacity_mw: 20, my_metric: 9 },
        ],
        objectives: { fiber_km: -1, capacity_mw: 1, my_metric: 1 },
        percentile: true,
        absolute: true,
      });
      expect(r.scoring_mode).toBe('percentile');
      expect(r.baseline).toBeDefined();
      expect(r.baseline!.metrics).toBeGreaterThanOrEqual(5);
      expect(r.baseline!.min_sample_size).toBeGreaterThan(100);
      // Sandbox clock: Saturday 2026-11-21 12:00Z; the baseline was rebuilt on Monday 06:00Z.
      expect(r.baseline!.computed_at).toBe('2026-11-16T06:00:00.000Z');
      expect(r.baseline!.age_hours).toBe(126);
      expect(r.percentile_baseline_available).toEqual(['fiber_km', 'capacity_mw']);
      expect(r.unbaselined_fields_fell_back_to_relative).toEqual(['my_metric']);
      expect(r.objective_status.map((o) => o.basis)).toEqual([
        'percentile_vs_population',
        'percentile_vs_population',
        'relative_fallback_not_in_baseline',
      ]);
      expect(r.caveats!.join(' ')).toMatch(/stale/);
      expect(r.caveats!.join(' ')).toMatch(/fewer than 8/);
      expect(r.caveats!.join(' ')).toMatch(/my_metric/);
      const near = r.results.find((x) => x.id === 'near')!;
      const far = r.results.find((x) => x.id === 'far')!;
      expect(near.normalized.fiber_km).toBeGreaterThan(90);
      expect(far.normalized.fiber_km).toBeLessThan(10);
      expect(near.normalized.capacity_mw).toBeGreaterThan(far.normalized.capacity_mw);
      expect(r.normalization_basis.fiber_km).toMatchObject({
        scale: 'percentile vs population',
        direction: 'minimize',
      });
    });

    it('a fresh baseline and 8+ candidates carry no caveat; the baseline is deterministic', async () => {
      await fetch(`${sb.url}/_sandbox/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ set: '2026-11-23T12:00:00Z' }),
      });
      const cands = Array.from({ length: 8 }, (_, i) => ({ id: `s${i}`, overall_score: 50 + i * 3 }));
      const r = await rank({ candidates: cands, objectives: { overall_score: 1 }, percentile: true, top_k: 8 });
      expect(r.baseline!.age_hours).toBe(6);
      expect(r.caveats).toEqual([]);
      const again = await rank({ candidates: cands, objectives: { overall_score: 1 }, percentile: true, top_k: 8 });
      expect(again.results).toEqual(r.results);
      expect(r.results[0].id).toBe('s7');
    });
  });

  describe('bad bodies: 400 naming the field', () => {
    it('candidates missing or empty', async () => {
      await refused({ objectives: { a: 1 } }, /^candidates: /);
      await refused({ candidates: [], objectives: { a: 1 } }, /^candidates: must be a non-empty list/);
    });
    it('more than 1,000 candidates', () =>
      refused(
        { candidates: Array.from({ length: 1001 }, () => ({ a: 1 })), objectives: { a: 1 } },
        /^candidates: at most 1000/,
      ));
    it('a candidate that is not an object', () =>
      refused({ candidates: [{ a: 1 }, 7], objectives: { a: 1 } }, /^candidates\.1: must be an object/));
    it('objectives missing, empty, zero or non-numeric', async () => {
      await refused({ candidates: [{ a: 1 }] }, /^objectives: objectives required/);
      await refused({ candidates: [{ a: 1 }], objectives: {} }, /^objectives: objectives required/);
      await refused({ candidates: [{ a: 1 }], objectives: { a: 0 } }, /^objectives\.a: weight must be non-zero/);
      await refused({ candidates: [{ a: 1 }], objectives: { a: 'high' } }, /^objectives\.a: weight must be a number/);
    });
    it('constraints malformed', async () => {
      await refused(
        { candidates: [{ a: 1 }], objectives: { a: 1 }, constraints: { a: 5 } },
        /^constraints\.a: must be an object/,
      );
      await refused(
        { candidates: [{ a: 1 }], objectives: { a: 1 }, constraints: { a: { min: 'x' } } },
        /^constraints\.a\.min: must be a number/,
      );
    });
    it('a constraint whose min is above its max is an empty range: it keeps no candidate', async () => {
      const r = await rank({
        candidates: [
          { id: 'x', a: 1 },
          { id: 'y', a: 3 },
        ],
        objectives: { a: 1 },
        constraints: { a: { min: 5, max: 1 } },
      });
      expect(r.results).toEqual([]);
    });
    it('top_k and flags', async () => {
      await refused({ candidates: [{ a: 1 }], objectives: { a: 1 }, top_k: 0 }, /^top_k: must be at least 1, got 0/);
      await refused({ candidates: [{ a: 1 }], objectives: { a: 1 }, top_k: 2.5 }, /^top_k: /);
      await refused(
        { candidates: [{ a: 1 }], objectives: { a: 1 }, percentile: 'maybe' },
        /^percentile: must be true or false/,
      );
    });
  });
});
