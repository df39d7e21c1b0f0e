import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY, ExcelFixture, PROFILES, call, range, streamResults, type Harness } from './fixture.js';

/**
 * Every DCHUB formula in Chromium, from the built bundle, against a running sandbox: keys of
 * several tiers, the sandbox's faults, value preview, a recalculation storm, stale answers.
 */
const KEYS = {
  free: 'xl-free-key-000001',
  developer: 'xl-dev-key-0000001',
  pro: 'xl-pro-key-0000001',
  enterprise: 'xl-ent-key-0000001',
};

/** Data rows of a spilled table (header and note rows left out). */
const dataRows = (m: any[][]) => m.slice(1).filter((r) => r.slice(1).some((v) => v !== ''));

describe.each(PROFILES)('every formula against the sandbox (%s profile)', (profile) => {
  const fx = new ExcelFixture();
  beforeAll(() => fx.start({ seed: 'excel-formulas', keys: KEYS, profile }));
  afterAll(() => fx.stop());
  const control = (p: string, body?: unknown, method = 'POST') => fx.control(p, body, method);
  const harness = (key?: string) => fx.harness(key);
  beforeEach(async () => {
    await control('/_sandbox/faults', undefined, 'DELETE');
    await control('/_sandbox/limits', undefined, 'DELETE');
  });
  const real = profile === 'real';
  const api = (p: string, key = KEYS.enterprise) => fx.api(p, key);

  describe('every formula against the sandbox (pro key)', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(KEYS.pro);
    });

    it('SITESCORE by field', async () => {
      const s = await api('/api/site-score?lat=41.88&lon=-87.63');
      expect((await call(h, 'SITESCORE', [41.88, -87.63, null, 'fiber.connectivity_score'])).value).toBe(
        s.fiber.connectivity_score,
      );
      expect((await call(h, 'SITESCORE', [41.88, -87.63, null, 'nearby.substations_50km'])).value).toBe(
        s.nearby.substations_50km,
      );
      expect((await call(h, 'SITESCORE', [41.88, -87.63, null, 'nope.none'])).error).toMatchObject({
        code: '#VALUE!',
        message: expect.stringMatching(/^field:/),
      });
    });

    it('BRIEFS, BRIEF, DCPI, AICAPACITY', async () => {
      const briefs = (await call(h, 'BRIEFS', [null, null, null])).value as any[][];
      expect(briefs[0][0]).toBe('market_slug');
      const all = await api('/api/v1/market-brief/all', KEYS.pro);
      expect(all.total_available).toBe(15); // Pro sees the 15 seed markets
      const failed = all.briefs.filter((b: { ok?: boolean }) => b.ok === false).map((b: { slug: string }) => b.slug);
      // The real profile fails one brief a day to build: left out, counted, and named in a closing row.
      expect(failed).toHaveLength(real ? 1 : 0);
      expect(briefs.slice(1).map((r) => r[0])).toEqual([
        ...all.briefs.filter((b: { ok?: boolean }) => b.ok !== false).map((b: { slug: string }) => b.slug),
        ...(real
          ? [
              `14 of 15 briefs (page 1)`,
              expect.stringMatching(
                new RegExp(
                  `^${failed[0]}: brief failed to build on the service \\(build_failed:KeyError:hero\\) \\(left out\\)$`,
                ),
              ),
            ]
          : []),
      ]);
      const dcpi = await api('/api/v1/dcpi/scores/dallas');
      expect((await call(h, 'DCPI', ['dallas', null])).value).toBe(dcpi.verdict);
      expect((await call(h, 'DCPI', ['dfw', 'composite_score'])).value).toBe(dcpi.composite_score);
      const brief = await api('/api/v1/market-brief/nova', KEYS.pro);
      expect((await call(h, 'BRIEF', ['nova', 'hero.verdict'])).value).toEqual([[brief.hero.verdict]]);
      const ai = (await call(h, 'AICAPACITY', [30])).value as any[][];
      expect(ai.length).toBe(1 + (await api('/api/v1/ai-capacity-index?horizon=30')).markets.length);
      expect((await call(h, 'AICAPACITY', [45])).error?.message).toMatch(/^horizon:/);
    });

    it('MARKETS, MARKET, COMPARE, STATS', async () => {
      const m = (await call(h, 'MARKETS', [])).value as any[][];
      expect(m.length - 1).toBe((await api('/api/v1/markets/list', KEYS.pro)).data.length);
      const detail = await api('/api/v1/markets/dallas');
      expect((await call(h, 'MARKET', ['dallas', 'stats.facility_count'])).value).toEqual([
        [detail.stats.facility_count],
      ]);
      const cmp = (await call(h, 'COMPARE', ['dallas,phoenix'])).value as any[][];
      expect(cmp.slice(1).map((r) => r[0])).toHaveLength(2);
      expect((await call(h, 'COMPARE', ['dallas'])).error?.message).toMatch(/^markets:/);
      const stats = (await call(h, 'STATS', [])).value as any[][];
      expect(stats.find((r) => r[0] === 'markets')?.[1]).toBe((await api('/api/v1/stats')).markets);
    });

    it('FACILITIES, DEALS, PIPELINE, PRICE', async () => {
      const f = (await call(h, 'FACILITIES', ['dallas', 'US', 5])).value as any[][];
      expect(dataRows(f)).toHaveLength(5);
      expect((await call(h, 'FACILITIES', ['dallas', 'USA', 5])).error?.message).toMatch(/^country:/);
      const d = (await call(h, 'DEALS', [5, 'acquisition'])).value as any[][];
      if (real) {
        // The real service asks a keyed caller for a year, buyer or seller (notes §2.13): DEALS takes them.
        expect((await call(h, 'DEALS', [5, 'acquisition'])).error?.message).toMatch(
          /^DC Hub: .*At least one filter is required: year, buyer, seller/,
        );
        const served = await api('/api/v1/transactions?limit=5&deal_type=acquisition&year=2025', KEYS.pro);
        expect(served.transactions.length).toBeGreaterThan(0);
        const byYear = (await call(h, 'DEALS', [5, 'acquisition', 2025])).value as any[][];
        expect(dataRows(byYear).map((r) => r[byYear[0].indexOf('id')])).toEqual(
          served.transactions.map((t: { id: number }) => t.id),
        );
      } else expect(dataRows(d)).toHaveLength(5);
      expect((await call(h, 'DEALS', [5, 'gift'])).error?.message).toMatch(/^deal_type:/);
      const p = (await call(h, 'PIPELINE', [])).value as any[][];
      expect(p.length).toBeGreaterThan(10);
      const price = (await api('/api/energy/prices/TX')).industrial_price_cents_kwh;
      if (real) expect(price).toMatch(/^\d+\.\d\d$/); // the real service's decimal text, read as a number
      expect((await call(h, 'PRICE', ['TX'])).value).toBe(Number(price));
    });

    it('PARCEL, RANK, CHAIN', async () => {
      const square = JSON.stringify({
        type: 'Polygon',
        coordinates: [
          [
            [-77.5, 39.0],
            [-77.49, 39.0],
            [-77.49, 39.01],
            [-77.5, 39.01],
            [-77.5, 39.0],
          ],
        ],
      });
      const acres = (await call(h, 'PARCEL', [square, 100, 'total_acres'])).value[0][0];
      expect(acres).toBeGreaterThan(200);
      expect((await call(h, 'PARCEL', ['{not json', null, null])).error?.message).toMatch(/^geojson:/);
      const candidates = range([
        ['id', 'lat', 'lon', 'score', 'km'],
        ['a', 39, -77, 80, 3],
        ['b', 40, -78, 60, 1],
        ['c', 41, -79, 70, EMPTY],
      ]);
      const ranked = (await call(h, 'RANK', [candidates, 'score:1,km:-1', 'km::10', null, null, null]))
        .value as any[][];
      expect(ranked[0].slice(0, 3)).toEqual(['rank', 'id', 'objective_score']);
      expect(ranked.slice(1).filter((r) => typeof r[0] === 'number')).toHaveLength(2); // c has no km: fails closed
      expect((await call(h, 'RANK', [candidates, 'score:zero', null, null, null, null])).error?.message).toMatch(
        /^objectives:/,
      );
      expect((await call(h, 'RANK', [candidates, 'score:1', null, 'best', null, null])).error?.message).toMatch(
        /^mode:/,
      );
      const chain = (await call(h, 'CHAIN', ['ERCOT', 100, 40, 'overall_score:1,fiber_km:-1', 3])).value as any[][];
      expect(chain[0]).toEqual(expect.arrayContaining(['rank', 'overall_score', 'norm_fiber_km']));
      expect(chain.filter((r) => typeof r[0] === 'number')).toHaveLength(3);
    });

    it('QUOTA, CITATION', async () => {
      const left = (await call(h, 'QUOTA', [])).value;
      expect(left).toBeGreaterThan(1900);
      expect(left).toBeLessThan(2000);
      expect((await call(h, 'CITATION', [])).value).toMatch(/CC-BY-4\.0/);
    });

    it('streaming NEWS and FUELMIX set results; errors go through setResult', async () => {
      const news = await streamResults(h, 'NEWS', [5]);
      expect(news.defects).toEqual([]);
      expect(dataRows(news.results[0].value)).toHaveLength(5);
      const fuel = await streamResults(h, 'FUELMIX', ['PJM']);
      expect(fuel.results[0].value[0]).toEqual(expect.arrayContaining(['source', 'percentage']));
      const bad = (await streamResults(h, 'FUELMIX', ['XYZ'])).results[0].error!;
      expect(bad.code).toBe('#VALUE!');
      expect(bad.message).toMatch(/^iso:/);
    });
  });

  describe('Excel behaviour', () => {
    it('value preview never calls the network', async () => {
      const h = await harness(KEYS.pro);
      const r = await call(h, 'SITESCORE', [35.1, -101.8, null, null], { isInValuePreview: true });
      expect(r.error).toMatchObject({ code: '#N/A', message: expect.stringMatching(/press Enter/) });
      expect(h.requests()).toBe(0);
      await call(h, 'SITESCORE', [35.1, -101.8, null, null]);
      expect(h.requests()).toBe(1);
      const preview = await call(h, 'SITESCORE', [35.1, -101.8, null, null], { isInValuePreview: true });
      expect(typeof preview.value).toBe('number');
      expect(h.requests()).toBe(1);
    });

    it('a recalculation storm of 1,000 cells over 200 argument sets sends at most 200 requests; a second one none', async () => {
      const h = await harness(KEYS.enterprise);
      const storm = () =>
        h.page.evaluate(async () => {
          const calls = [];
          for (let i = 0; i < 1000; i++)
            calls.push((window as any).__call('SITESCORE', [30 + (i % 200) * 0.05, -100, null, null]));
          const res = await Promise.all(calls);
          return res.filter((r: any) => typeof r.value === 'number').length;
        });
      expect(await storm()).toBe(1000);
      expect(h.requests()).toBeLessThanOrEqual(200);
      const first = h.requests();
      expect(await storm()).toBe(1000);
      expect(h.requests()).toBe(first);
    });

    it('a keyless QUEUE shows the preview rows and a closing note saying what is hidden and how to unlock', async () => {
      const h = await harness();
      const m = (await call(h, 'QUEUE', ['PJM', 100, null, null, null, null, null, null, null, null])).value as any[][];
      expect(m).toHaveLength(1 + 3 + 1);
      const served = await (await fetch(`${fx.sb.url}/api/v1/interconnection-queue/refined?iso=PJM&min_mw=100`)).json();
      const total = served._total_available.toLocaleString('en-US');
      // core's previewSentence of the service's own markers: rows, withheld fields, the caller's ignored filter, the
      // plan.
      expect(m[4][0]).toBe(
        real
          ? `Preview: 3 of ${total} rows shown; withheld: capacity_mw, estimated_ttp_months, fiber_km, site_evaluation_handoff, total_queued_mw; your filter min_mw was not applied; the Developer plan opens the full answer: https://dchub.cloud/pricing.`
          : `Preview: 3 of ${total} rows shown; withheld: capacity_mw, estimated_ttp_months, fiber_km, site_evaluation_handoff; your filter min_mw was not applied; a free API key opens the full answer: https://dchub.cloud/api/v1/keys/claim.`,
      );
      expect(m.slice(1, 4).every((r) => r[m[0].indexOf('capacity_mw')] === '')).toBe(true); // withheld: blank, never 0
    });

    it('when the daily allowance is spent: #N/A for new arguments, cached data with its age otherwise', async () => {
      const start = Date.UTC(2026, 10, 21, 1, 0); // early in a UTC day, so an hour later is the same day
      const h = await harness(KEYS.free); // 10 calls a day
      await h.page.clock.install({ time: start });
      const table = (await call(h, 'MARKETS', [])).value as any[][];
      for (let i = 0; i < 9; i++) await call(h, 'SITESCORE', [36 + i * 0.1, -97, null, null]);
      const over = await call(h, 'SITESCORE', [47, -97, null, null]);
      // The allowance the service stated (X-RateLimit-Limit of the key's answers) is refused locally, with the reset
      // time.
      expect(over.error).toEqual({
        code: '#N/A',
        message: expect.stringMatching(
          /^DC Hub: daily allowance of 10 calls is spent; it resets at 2026-11-2\d 00:00 UTC$/,
        ),
      });
      const sent = h.requests();
      // An hour later the market list has expired (30 minutes): it is shown from the cache, with its age.
      await h.page.clock.setSystemTime(start + 3600_000);
      const stale = (await call(h, 'MARKETS', [])).value as any[][];
      expect(stale.slice(0, table.length)).toEqual(table);
      expect(stale.at(-1)![0]).toBe('served from the cache (1 h old): daily limit reached');
      expect(h.requests()).toBe(sent); // a 429 states the allowance: nothing more is sent today
    });

    it('service faults: cached data with its age, or #N/A with the reason', async () => {
      const h = await harness(KEYS.pro);
      const fresh = (await call(h, 'MARKETS', [])).value as any[][];
      await control('/_sandbox/faults', [{ path_prefix: '/api/v1/markets', kind: 'status', status: 503 }]);
      await h.page.clock.install({ time: Date.now() + 2 * 3600_000 }); // past the 30-minute lifetime
      const stale = (await call(h, 'MARKETS', [])).value as any[][];
      expect(stale.slice(0, fresh.length)).toEqual(fresh);
      expect(stale.at(-1)![0]).toBe('served from the cache (2 h old): service error');
      await control('/_sandbox/faults', [{ path_prefix: '/api/v1/stats', kind: 'reset' }]);
      const none = await call(h, 'STATS', []);
      expect(none.error).toMatchObject({ code: '#N/A' });
    });

    it('cancel aborts the request', async () => {
      const h = await harness(KEYS.pro);
      await control('/_sandbox/faults', [{ path_prefix: '/api/site-score', kind: 'latency', latency_ms: 3000 }]);
      const c = await call(h, 'SITESCORE', [12, 12, null, null], { cancelAfterMs: 100 });
      const r = `${c.error?.code}: ${c.error?.message}`;
      expect(r).toBe('#N/A: DC Hub: request canceled');
    });
  });
});
