import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueResult } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../src/server.js';
import type { QueueProject } from '../src/data/queue.js';
import { PROFILES } from '../src/presenters/index.js';

// Profile-independent rules: the same assertions hold for the spec and the real-service profile.
describe.each(PROFILES)('%s profile', (profile) => {
  let sb: RunningSandbox;
  const KEY = 'rules-enterprise-key';
  let all: QueueProject[];
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'rules',
      now: '2026-11-21T12:00:00Z',
      keys: `enterprise=${KEY}`,
    });
    all = sb.ctx.data.queue;
  });
  afterAll(() => sb?.close());

  const get = async (query: string) => {
    const res = await fetch(`${sb.url}/api/v1/interconnection-queue/refined?${query}`, {
      headers: { 'X-API-Key': KEY },
    });
    const body = await res.json();
    return { status: res.status, body };
  };
  const refine = async (query: string) => {
    const { status, body } = await get(query);
    expect(status).toBe(200);
    return QueueResult.parse(body);
  };

  // Independent statements of the §4.2 rules, checked against the served counts.
  const TERMINAL = /withdraw|cancel|terminat|suspend|commercial operation|deactivat/i;
  const INTERMITTENT = /wind|solar|photovoltaic|storage|battery|bess|hybrid/i;
  const active = (p: QueueProject) => !TERMINAL.test(p.queue_status);
  const count = (pred: (p: QueueProject) => boolean) => all.filter(pred).length;

  describe('data set', () => {
    it('is sized like the live queues', () => {
      expect(all.length).toBeGreaterThanOrEqual(5300);
      expect(new Set(all.map((p) => p.iso))).toEqual(
        new Set(['PJM', 'ERCOT', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISO-NE']),
      );
      const geocoded = count((p) => p.lat !== null) / all.length;
      expect(geocoded).toBeGreaterThan(0.8);
      expect(geocoded).toBeLessThan(0.86);
      expect(new Set(all.map((p) => p.queue_id)).size).toBe(all.length);
    });
    it('labels itself synthetic', async () => {
      const res = await fetch(`${sb.url}/api/v1/interconnection-queue/refined?limit=1`, {
        headers: { 'X-API-Key': KEY },
      });
      expect(res.headers.get('x-dchub-data')).toBe('synthetic');
      expect((await res.json()).note).toMatch(/synthetic/i);
    });
    it('allows browser pages on other origins (CORS)', async () => {
      const res = await fetch(`${sb.url}/api/site-score?lat=1&lon=1`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:8888',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'x-api-key',
        },
      });
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    });
  });

  describe('refined queue predicates (spec §4.2)', () => {
    it('defaults to active projects, 200 rows, capacity descending', async () => {
      const r = await refine('');
      expect(r.count_total_matching).toBe(count(active));
      expect(r.count_returned).toBe(200);
      const caps = r.results.map((x) => x.capacity_mw ?? -1);
      expect([...caps].sort((a, b) => b - a)).toEqual(caps);
      expect(r.filters_applied).toMatchObject({
        status: 'active',
        iso: null,
        min_mw: null,
        max_ttp_months: null,
        baseload_only: false,
      });
    });
    it('iso is a union and ISONE equals ISO-NE', async () => {
      const r = await refine('iso=PJM,isone&limit=1000');
      expect(r.count_total_matching).toBe(count((p) => active(p) && (p.iso === 'PJM' || p.iso === 'ISO-NE')));
      expect(new Set(r.results.map((x) => x.iso))).toEqual(new Set(['PJM', 'ISO-NE']));
      const hyphen = await refine('iso=ISO-NE');
      const plain = await refine('iso=ISONE');
      expect(hyphen.count_total_matching).toBe(plain.count_total_matching);
    });
    it('min_mw keeps projects at or above the capacity', async () => {
      const r = await refine('min_mw=500&status=all&limit=1000');
      expect(r.count_total_matching).toBe(count((p) => (p.capacity_mw ?? -1) >= 500));
      expect(r.results.every((x) => (x.capacity_mw ?? 0) >= 500)).toBe(true);
    });
    it('max_ttp_months cuts whole ISOs by their average wait', async () => {
      const r = await refine('max_ttp_months=34');
      const kept = new Set(['ERCOT', 'MISO', 'SPP', 'NYISO', 'ISO-NE']); // PJM 50.5 and CAISO 39.9 are cut
      expect(r.count_total_matching).toBe(count((p) => active(p) && kept.has(p.iso)));
      expect(r.isos_excluded_by_ttp).toEqual({ PJM: 50.5, CAISO: 39.9 });
      expect(r.min_satisfiable_max_ttp_months).toBe(24);
    });
    it('baseload_only drops wind, solar and storage labels', async () => {
      const r = await refine('baseload_only=true&limit=1000');
      expect(r.count_total_matching).toBe(count((p) => active(p) && !INTERMITTENT.test(p.fuel_type)));
      expect(r.results.some((x) => INTERMITTENT.test(x.fuel_type ?? ''))).toBe(false);
    });
    it('fuel_type is a case-insensitive substring union', async () => {
      const r = await refine('fuel_type=gas;NUCLEAR&status=all&limit=1000');
      expect(r.count_total_matching).toBe(count((p) => /gas|nuclear/i.test(p.fuel_type)));
      expect(r.count_total_matching).toBeGreaterThan(0);
    });
    it('status: all keeps everything, other text is a substring match', async () => {
      expect((await refine('status=all')).count_total_matching).toBe(all.length);
      const w = await refine('status=withdrawn');
      expect(w.count_total_matching).toBe(count((p) => /withdrawn/i.test(p.queue_status)));
      expect(w.count_total_matching).toBeGreaterThan(0);
    });
    it('max_fiber_km implies geocoded rows within the distance', async () => {
      const r = await refine('max_fiber_km=20&limit=1000');
      expect(r.count_total_matching).toBe(count((p) => active(p) && p.fiber_km !== null && p.fiber_km <= 20));
      expect(r.results.every((x) => x.lat !== null && (x.fiber_km ?? Infinity) <= 20)).toBe(true);
    });
    it('geocoded_only keeps rows with coordinates, each with a site hand-off', async () => {
      const r = await refine('geocoded_only=1&limit=50');
      expect(r.count_total_matching).toBe(count((p) => active(p) && p.lat !== null));
      for (const x of r.results) {
        expect(x.site_evaluation_handoff?.analyze_site).toMatchObject({
          lat: x.lat,
          lon: x.lng,
          include_fiber: true,
          include_risk: true,
        });
        expect(x.candidate_id).toMatch(/^cand_[0-9a-f]{20}$/);
      }
    });
    it('predicates intersect', async () => {
      const r = await refine('iso=ERCOT,SPP&min_mw=100&baseload_only=yes&geocoded_only=true&limit=1000');
      expect(r.count_total_matching).toBe(
        count(
          (p) =>
            active(p) &&
            (p.iso === 'ERCOT' || p.iso === 'SPP') &&
            (p.capacity_mw ?? -1) >= 100 &&
            !INTERMITTENT.test(p.fuel_type) &&
            p.lat !== null,
        ),
      );
    });
    it('limit caps the rows but not the total', async () => {
      const r = await refine('limit=7');
      expect(r.count_returned).toBe(7);
      expect(r.count_total_matching).toBe(count(active));
    });
    it('a zero-row time-to-power cut answers 200 with a hint naming a value that returns rows', async () => {
      const r = await refine('iso=PJM,CAISO&max_ttp_months=30');
      expect(r.count_returned).toBe(0);
      const m = r._error_mitigation!;
      expect(m).toMatchObject({ error_code: 'zero_row_ttp_cut', error_version: 1, severity: 'parameter_adjustment' });
      const value = m.suggested_params!.max_ttp_months as number;
      expect(m.deterministic_hint).toContain(String(value));
      const retry = await refine(`iso=PJM,CAISO&max_ttp_months=${value}`);
      expect(retry.count_returned).toBeGreaterThan(0);
      expect(retry._error_mitigation).toBeUndefined();
    });
    it('no hint when other predicates empty the set', async () => {
      const r = await refine('iso=SPP&max_ttp_months=30&min_mw=99999');
      expect(r.count_returned).toBe(0);
      expect(r._error_mitigation).toBeUndefined();
    });
    it.each([
      ['min_mw=abc', 'min_mw'],
      ['min_mw=-3', 'min_mw'],
      ['iso=XYZ', 'iso'],
      ['limit=0', 'limit'],
      ['limit=5000', 'limit'],
      ['max_ttp_months=0', 'max_ttp_months'],
      ['baseload_only=perhaps', 'baseload_only'],
      ['max_fiber_km=far', 'max_fiber_km'],
    ])('bad input %s answers 400 naming %s', async (query, param) => {
      const { status, body } = await get(query);
      expect(status).toBe(400);
      expect(body).toMatchObject({ ok: false, _entity: 'error', param });
      expect(body.error.startsWith(`${param}:`)).toBe(true);
    });
  });

  describe('site score and briefs', () => {
    it('site score follows the published weights', async () => {
      // The real service reads `capacity`, the spec names it capacity_mw.
      const capacity = profile === 'real' ? 'capacity' : 'capacity_mw';
      const body = await (await fetch(`${sb.url}/api/site-score?lat=39.04&lon=-77.49&${capacity}=100`)).json();
      const s = body.scores;
      const expected =
        Math.round(
          (0.25 * s.power_infrastructure +
            0.1 * s.gas_pipeline_access +
            0.15 * s.fiber_connectivity +
            0.15 * s.market_conditions +
            0.35 * s.risk_resilience) *
            10,
        ) / 10;
      expect(body.overall_score).toBe(expected);
      expect(body.location.state).toBe('VA');
      expect(body.capacity_context.affects_overall_score).toBe(false);
    });
    it('site score rejects bad coordinates with 400', async () => {
      const res = await fetch(`${sb.url}/api/site-score?lat=north&lon=1`);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/^lat:/);
    });
    it('brief CSV has the spec columns in order and 232 markets for enterprise', async () => {
      const res = await fetch(`${sb.url}/api/v1/market-brief/all.csv`);
      const [header] = (await res.text()).split('\r\n');
      expect(header).toBe(
        'market_slug,market_name,verdict,composite_score,excess_power,constraint_score,queue_wait_months,iso,state,operational_mw,pipeline_mw,facility_count,vacancy_pct,lease_rate,top_operator,outlook_word_count,live_as_of,computed_at',
      );
      expect(res.headers.get('content-disposition')).toMatch(
        /attachment; filename="dchub-market-briefs-\d{4}-\d{2}-\d{2}\.csv"/,
      );
      expect(sb.ctx.data.stats.size).toBe(232);
    });
    it('unknown keys are refused with auth instructions', async () => {
      const res = await fetch(`${sb.url}/api/v1/market-brief/all.csv`, { headers: { 'X-API-Key': 'nope' } });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        error: 'invalid_api_key',
        auth_instructions: expect.stringMatching(/auth\.md$/),
      });
    });
  });
});
