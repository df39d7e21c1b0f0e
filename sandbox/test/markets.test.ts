import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AiCapacityIndex,
  DCPI_CITATION,
  DcpiLeaderboard,
  DcpiScoreList,
  DcpiScoreResponse,
  MarketCompare,
  MarketDetail,
  MarketList,
  PlatformStats,
} from '@dchub/core';
import { scoringDay } from '../src/data/markets.js';
import { startSandbox, type RunningSandbox } from '../src/server.js';

const KEYS = { free: 'f1', starter: 's1', developer: 'd1', pro: 'p1', enterprise: 'e1' } as const;
type KeyTier = keyof typeof KEYS | 'anonymous';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'x',
    now: '2026-11-21T12:00:00Z',
    keys: 'free=f1,starter=s1,developer=d1,pro=p1,enterprise=e1',
    controls: true,
  });
});
afterAll(() => sb?.close());

const call = async (path: string, tier: KeyTier = 'enterprise', headers: Record<string, string> = {}) => {
  const res = await fetch(sb.url + path, {
    headers: tier === 'anonymous' ? headers : { 'X-API-Key': KEYS[tier], ...headers },
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* CSV or empty */
  }
  return { status: res.status, headers: res.headers, body, text };
};
const resetLimits = () => fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' });
const facilitiesOf = (slug: string) => sb.ctx.data.infra.facilities.filter((f) => f.market === slug);
const todayScores = () => sb.ctx.data.dcpi(scoringDay(sb.ctx.clock.nowMs()));
/** composite = (excess·0.6 + (100 − constraint)·0.3 + (1 − min(ttp,60)/60)·10) × verdict multiplier (notes §2.6.1). */
const composite = (e: number, c: number, t: number, v: string) =>
  Math.round(
    Math.max(
      0,
      Math.min(
        100,
        (e * 0.6 + (100 - c) * 0.3 + (1 - Math.min(t, 60) / 60) * 10) *
          ({ BUILD: 1, CAUTION: 0.85, AVOID: 0.6 } as Record<string, number>)[v],
      ),
    ) * 10,
  ) / 10;

describe('GET /api/v1/stats', () => {
  it('gives platform totals from the data set', async () => {
    await resetLimits();
    const r = await call('/api/v1/stats', 'anonymous');
    expect(r.status).toBe(200);
    const s = PlatformStats.parse(r.body);
    const fs = sb.ctx.data.infra.facilities;
    expect(s.success).toBe(true);
    expect(s.facilities).toBe(fs.length);
    expect(s.data.total_facilities).toBe(fs.length);
    expect(s.markets).toBe(232);
    expect(s.countries).toBe(new Set(fs.map((f) => f.country)).size);
    expect(s.countries).toBeGreaterThanOrEqual(170);
    expect(s.providers).toBe(new Set(fs.map((f) => f.operator)).size);
    const mw = fs.filter((f) => f.status === 'operational').reduce((a, f) => a + f.power_mw, 0);
    expect(s.capacity_mw).toBeCloseTo(mw, 0);
    expect(s.articles).toBeGreaterThan(0);
    expect(s.deals).toBeGreaterThan(0);
    expect(s.data.total_transactions).toBe(s.deals);
    expect(s.generated_at).not.toMatch(/Z$/);
    expect(r.headers.get('cache-control')).toBe('public, max-age=60');
    expect(r.body.note).toMatch(/synthetic/i);
  });
});

describe('GET /api/v1/markets and /api/v1/markets/list', () => {
  it('caps rows per tier and hides pipeline MW and price below the paid plans', async () => {
    await resetLimits();
    const expected: Array<[KeyTier, number, boolean]> = [
      ['anonymous', 5, false],
      ['free', 10, false],
      ['developer', 50, true],
      ['pro', 232, true],
      ['enterprise', 232, true],
    ];
    for (const [tier, rows, priced] of expected) {
      const r = await call('/api/v1/markets/list', tier);
      expect(r.status).toBe(200);
      const l = MarketList.parse(r.body);
      expect(l.tier).toBe(tier);
      expect(l.count).toBe(rows);
      expect(l.data).toHaveLength(rows);
      expect(l.total).toBe(232);
      expect(l.locked).toBe(232 - rows);
      for (const row of l.data) {
        expect('pipeline_mw_total' in row).toBe(priced);
        expect('avg_kwh_price_usd' in row).toBe(priced);
      }
      if (rows === 232) {
        expect(l.upsell).toBeNull();
        expect(l.upgrade_url).toBeNull();
      } else {
        expect(l.upsell).toEqual(expect.any(String));
        expect(l.upgrade_url).toEqual(expect.any(String));
      }
      expect('signup_url' in l).toBe(tier === 'anonymous');
    }
  });
  it('/markets answers as /markets/list with X-Canonical-Path', async () => {
    const a = await call('/api/v1/markets', 'developer');
    const b = await call('/api/v1/markets/list', 'developer');
    expect(a.text).toBe(b.text);
    expect(a.headers.get('x-canonical-path')).toBe('/api/v1/markets/list');
    expect(b.headers.get('x-canonical-path')).toBeNull();
  });
  it('rows carry counts, pipeline MW and price per kWh from the data set, largest markets first', async () => {
    const l = MarketList.parse((await call('/api/v1/markets/list')).body);
    const counts = l.data.map((r) => r.facility_count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const nova = l.data.find((r) => r.slug === 'northern-virginia')!;
    expect(nova.id).toBe('northern virginia'); // curated keys carry a space, as on the real service
    const fs = facilitiesOf('northern-virginia');
    expect(nova.facility_count).toBe(fs.length);
    expect(nova.pipeline_mw_total).toBeCloseTo(
      fs.filter((f) => f.status !== 'operational').reduce((a, f) => a + f.power_mw, 0),
      0,
    );
    expect(nova.avg_kwh_price_usd).toBeGreaterThan(0.03);
    expect(nova.avg_kwh_price_usd).toBeLessThan(0.5);
  });
});

describe('GET /api/v1/markets/{market_name}', () => {
  it('accepts a slug or a name, case-insensitive, hyphens equal to spaces', async () => {
    const bodies = await Promise.all(
      ['northern-virginia', 'Northern%20Virginia', 'NORTHERN-virginia', 'northern_virginia'].map(
        async (n) => (await call(`/api/v1/markets/${n}`)).body,
      ),
    );
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    const d = MarketDetail.parse(bodies[0]);
    const fs = facilitiesOf('northern-virginia');
    expect(d.market.name).toBe('Northern Virginia');
    expect(d.stats.facility_count).toBe(fs.length);
    expect(d.stats.provider_count).toBe(new Set(fs.map((f) => f.operator)).size);
    expect(Object.values(d.by_status).reduce((a, n) => a + n, 0)).toBe(fs.length);
    expect(d.by_status.operational).toBe(fs.filter((f) => f.status === 'operational').length);
    expect(d.top_providers.length).toBeLessThanOrEqual(10);
    expect(d.top_providers.map((p) => p.facilities)).toEqual(
      [...d.top_providers.map((p) => p.facilities)].sort((a, b) => b - a),
    );
    expect(d.recent_facilities.length).toBe(5);
    const ids = new Set(fs.map((f) => f.id));
    expect(d.recent_facilities.every((f) => ids.has(f.id))).toBe(true);
    const at = d.recent_facilities.map((f) => f.discovered_at!);
    expect([...at].sort().reverse()).toEqual(at);
  });
  it('answers 404 NOT_FOUND for an unknown market', async () => {
    const r = await call('/api/v1/markets/atlantis');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Market not found', code: 'NOT_FOUND' });
    const odd = await call('/api/v1/markets/100%25%20uptime');
    expect(odd.status).toBe(404);
  });
});

describe('GET /api/v1/markets/compare', () => {
  it('compares 2 to 4 markets side by side', async () => {
    const r = await call('/api/v1/markets/compare?markets=dallas,Northern Virginia,phoenix,chicago', 'anonymous');
    expect(r.status).toBe(200);
    const cmp = MarketCompare.parse(r.body);
    expect(cmp.comparison.map((x) => x.market)).toEqual(['dallas', 'northern-virginia', 'phoenix', 'chicago']);
    const dal = cmp.comparison[0];
    const fs = facilitiesOf('dallas');
    expect(dal.metrics.facilities).toBe(fs.length);
    expect(dal.metrics.operational + dal.metrics.pipeline).toBe(fs.length);
    expect(dal.metrics.max_power_mw).toBe(Math.max(...fs.map((f) => f.power_mw)));
    expect(dal.top_providers.length).toBeGreaterThan(0);
  });
  it.each([
    ['', /^markets: parameter required/],
    ['?markets=', /^markets: parameter required/],
    ['?markets=dallas', /^markets: provide 2-4 markets/],
    ['?markets=a,b,c,d,e', /^markets: provide 2-4 markets/],
  ])('answers 400 VALIDATION_ERROR for %s', async (q, msg) => {
    const r = await call(`/api/v1/markets/compare${q}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
    expect(r.body.error).toMatch(msg);
  });
  it('answers 404 with available_markets for unknown markets', async () => {
    const r = await call('/api/v1/markets/compare?markets=dallas,atlantis');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'NOT_FOUND', error: expect.stringContaining('atlantis') });
    expect(r.body.available_markets).toHaveLength(20);
    expect(r.body.available_markets).toContain('northern-virginia');
  });
});

describe('GET /api/v1/dcpi/scores/{market_slug}', () => {
  it("gives the spec §2.7 fields and the inputs, matching the day's recompute", async () => {
    const r = await call('/api/v1/dcpi/scores/dallas', 'anonymous');
    expect(r.status).toBe(200);
    const s = DcpiScoreResponse.parse(r.body);
    const want = todayScores().find((x) => x.market_slug === 'dallas')!;
    expect(s).toMatchObject({
      market_slug: 'dallas',
      verdict: want.verdict,
      composite_score: want.composite_score,
      excess_power_score: want.excess_power_score,
      constraint_score: want.constraint_score,
      time_to_power_months: want.time_to_power_months,
      queue_wait_months: want.queue_wait_months,
      reserve_margin_pct: want.reserve_margin_pct,
      computed_at: want.computed_at,
    });
    expect(['BUILD', 'CAUTION', 'AVOID']).toContain(s.verdict);
    expect(s.composite_score).toBe(
      composite(s.excess_power_score!, s.constraint_score!, s.time_to_power_months!, s.verdict),
    );
    expect(s._requested_slug).toBeUndefined();
    expect(s.forecast?.available).toBe(true);
    expect(r.body.citation).toBe(DCPI_CITATION);
  });
  it.each([
    ['nova', 'northern-virginia'],
    ['n-virginia', 'northern-virginia'],
    ['dfw', 'dallas'],
    ['dallas-fort-worth', 'dallas'],
    ['sv', 'silicon-valley'],
    ['bay-area', 'silicon-valley'],
  ])('resolves the alias %s to %s', async (alias, canonical) => {
    const r = await call(`/api/v1/dcpi/scores/${alias}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ market_slug: canonical, _requested_slug: alias, _canonical_slug: canonical });
  });
  it('answers 404 for an unknown market', async () => {
    const r = await call('/api/v1/dcpi/scores/atlantis');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'market not found', slug: 'atlantis' });
  });
  it('sends an ETag and answers 304 to If-None-Match', async () => {
    const r = await call('/api/v1/dcpi/scores/phoenix');
    const etag = r.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(r.headers.get('cache-control')).toBe('public, max-age=120, stale-while-revalidate=300');
    const again = await call('/api/v1/dcpi/scores/phoenix', 'enterprise', { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const other = await call('/api/v1/dcpi/scores/phoenix', 'enterprise', { 'If-None-Match': '"stale"' });
    expect(other.status).toBe(200);
    const dallas = await call('/api/v1/dcpi/scores/dallas');
    expect(dallas.headers.get('etag')).not.toBe(etag);
  });
});

describe('GET /api/v1/dcpi/scores (list)', () => {
  it('sorts and filters for paid plans', async () => {
    const all = DcpiScoreList.parse((await call('/api/v1/dcpi/scores', 'developer')).body);
    expect(all.count).toBe(232);
    const ex = all.scores.map((s) => s.excess_power_score!);
    expect([...ex].sort((a, b) => b - a)).toEqual(ex);
    const ttp = DcpiScoreList.parse((await call('/api/v1/dcpi/scores?sort=ttp&iso=pjm&limit=20', 'developer')).body);
    expect(ttp.sort).toBe('time_to_power');
    expect(ttp.scores.every((s) => s.iso === 'PJM')).toBe(true);
    const t = ttp.scores.map((s) => s.time_to_power_months!);
    expect([...t].sort((a, b) => a - b)).toEqual(t);
    const build = DcpiScoreList.parse((await call('/api/v1/dcpi/scores?verdict=build', 'developer')).body);
    expect(build.count).toBe(todayScores().filter((s) => s.verdict === 'BUILD').length);
  });
  it('masks the numbers below the Developer plan and caps keyless callers to 10 rows', async () => {
    await resetLimits();
    const free = DcpiScoreList.parse((await call('/api/v1/dcpi/scores', 'free')).body);
    expect(free.count).toBe(232);
    expect(free.scores.every((s) => s.composite_score === null && s.locked === true)).toBe(true);
    expect(free.scores.every((s) => ['BUILD', 'CAUTION', 'AVOID'].includes(s.verdict))).toBe(true);
    expect(free).toMatchObject({
      _gated: true,
      _preview_only: true,
      _required_tier: 'DEVELOPER',
      _total_available: 232,
    });
    const anon = DcpiScoreList.parse((await call('/api/v1/dcpi/scores', 'anonymous')).body);
    expect(anon.count).toBe(10);
    expect(anon._hidden_count).toBe(222);
  });
  it('rejects an unknown sort naming the parameter', async () => {
    const r = await call('/api/v1/dcpi/scores?sort=best');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^sort:/);
  });
});

describe('GET /api/v1/dcpi/leaderboard', () => {
  it('ranks 25 markets by composite, descending', async () => {
    const r = await call('/api/v1/dcpi/leaderboard', 'anonymous');
    expect(r.status).toBe(200);
    const lb = DcpiLeaderboard.parse(r.body);
    expect(lb.count).toBe(25);
    expect(lb.leaderboard.map((x) => x.rank)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const best = [...todayScores()].sort(
      (a, b) => b.composite_score - a.composite_score || a.market_slug.localeCompare(b.market_slug),
    );
    expect(lb.leaderboard.map((x) => x.market_slug)).toEqual(best.slice(0, 25).map((s) => s.market_slug));
    expect(lb.citation).toBe('DC Hub Power Index (DCPI), DC Hub, dchub.cloud, CC-BY-4.0');
    expect(r.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
  });
  it('filters by verdict and honours limit up to 100', async () => {
    const lb = DcpiLeaderboard.parse((await call('/api/v1/dcpi/leaderboard?verdict=caution&limit=100')).body);
    const n = todayScores().filter((s) => s.verdict === 'CAUTION').length;
    expect(lb.count).toBe(Math.min(100, n));
    expect(lb.leaderboard.every((x) => x.verdict === 'CAUTION')).toBe(true);
    expect(lb.filter.verdict).toBe('CAUTION');
    for (const [q, param] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['verdict=MAYBE', 'verdict'],
      ['format=xml', 'format'],
    ]) {
      const bad = await call(`/api/v1/dcpi/leaderboard?${q}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.startsWith(`${param}:`)).toBe(true);
    }
  });
  it('serves CSV with format=csv', async () => {
    const r = await call('/api/v1/dcpi/leaderboard?format=csv&limit=5');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="dcpi-leaderboard.csv"');
    const lines = r.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'rank,market_slug,market_name,iso,state,verdict,excess_power_score,constraint_score,quality_score,computed_at,url,reasoning',
    );
    expect(lines).toHaveLength(6);
    const json = DcpiLeaderboard.parse((await call('/api/v1/dcpi/leaderboard?limit=5')).body);
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(json.leaderboard.map((x) => x.market_slug));
  });
});

describe('GET /api/v1/ai-capacity-index', () => {
  it('ranks markets by AI-ready deployable MW; horizons 30/60/90 give different answers', async () => {
    const by: Record<number, ReturnType<typeof AiCapacityIndex.parse>> = {};
    for (const h of [30, 60, 90]) {
      const r = await call(`/api/v1/ai-capacity-index?horizon=${h}&limit=50`, 'free');
      expect(r.status).toBe(200);
      by[h] = AiCapacityIndex.parse(r.body);
      expect(by[h].horizon_days).toBe(h);
      expect(by[h]._gated).toBeUndefined();
      const ai = by[h].markets.map((m) => m.ai_ready_mw.value!);
      expect([...ai].sort((a, b) => b - a)).toEqual(ai);
      expect(by[h].markets.map((m) => m.rank)).toEqual(ai.map((_, i) => i + 1));
      for (const m of by[h].markets) {
        expect(typeof m.hyperscale_ready).toBe('boolean');
        expect(m.ai_ready_mw.basis).toBe('proxy');
        expect(m.ai_ready_mw.value!).toBeLessThanOrEqual(m.deployable_mw.value!);
        expect(m.horizon_days).toBe(h);
      }
    }
    const total = (h: number) => by[h].markets.reduce((a, m) => a + (m.pipeline_mw ?? 0), 0);
    expect(total(30)).toBeLessThan(total(60));
    expect(total(60)).toBeLessThan(total(90));
    const def = AiCapacityIndex.parse((await call('/api/v1/ai-capacity-index?limit=50', 'free')).body);
    expect(def.horizon_days).toBe(90);
    expect(def.markets).toEqual(by[90].markets);
    expect(AiCapacityIndex.parse((await call('/api/v1/ai-capacity-index', 'pro')).body).result_count).toBe(20);
  });
  it.each(['45', '7', '120', 'soon'])('rejects horizon=%s naming the parameter', async (h) => {
    const r = await call(`/api/v1/ai-capacity-index?horizon=${h}`);
    expect(r.status).toBe(400);
    expect(r.body.param).toBe('horizon');
    expect(r.body.error).toMatch(/^horizon:/);
  });
  it('gives keyless callers a gated preview with bands', async () => {
    await resetLimits();
    const r = await call('/api/v1/ai-capacity-index?horizon=60', 'anonymous');
    expect(r.status).toBe(200);
    const idx = AiCapacityIndex.parse(r.body);
    expect(idx).toMatchObject({ _gated: true, _preview_only: true, _required_tier: 'IDENTIFIED' });
    expect(idx._total_available).toBeGreaterThan(idx.result_count);
    expect(idx._hidden_count).toBe(idx._total_available! - idx.result_count);
    expect(idx._signup_url).toEqual(expect.any(String));
    expect(idx._upgrade_cta).toEqual(expect.any(String));
    for (const m of idx.markets) {
      expect(m.score).toBeNull();
      expect(m.score_band).toEqual(expect.any(String));
      expect(m.deployable_mw.value).toBeNull();
      expect(m.deployable_mw.band).toMatch(/MW|GW|TW/);
      expect(m.ai_ready_mw.value).toBeNull();
      expect(m.total_installed_mw).toBeNull();
      expect(m.total_installed_mw_band).toEqual(expect.any(String));
      expect(m.facility_count).toBeGreaterThanOrEqual(3);
    }
    const full = AiCapacityIndex.parse((await call('/api/v1/ai-capacity-index?horizon=60', 'free')).body);
    expect(idx.markets.map((m) => m.market)).toEqual(full.markets.map((m) => m.market));
  });
});

describe('daily recompute', () => {
  it('moves the DCPI and the AI capacity index to the next day', async () => {
    const before = AiCapacityIndex.parse((await call('/api/v1/ai-capacity-index?limit=50')).body);
    const lbBefore = DcpiLeaderboard.parse((await call('/api/v1/dcpi/leaderboard')).body);
    const day = scoringDay(sb.ctx.clock.nowMs());
    const today = new Map(sb.ctx.data.dcpi(day).map((s) => [s.market_slug, s.computed_at]));
    const moved = sb.ctx.data
      .dcpi(day + 1)
      .filter((s) => s.computed_at !== today.get(s.market_slug))
      .map((s) => s.market_slug);
    expect(moved.length).toBeGreaterThan(0);
    const etag = (await call(`/api/v1/dcpi/scores/${moved[0]}`)).headers.get('etag');
    await fetch(`${sb.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_seconds: 86_400 }),
    });
    const after = AiCapacityIndex.parse((await call('/api/v1/ai-capacity-index?limit=50')).body);
    expect(Date.parse(after.computed_at) - Date.parse(before.computed_at)).toBe(86_400_000);
    expect(after.markets).not.toEqual(before.markets);
    const lbAfter = DcpiLeaderboard.parse((await call('/api/v1/dcpi/leaderboard')).body);
    expect(Date.parse(lbAfter.as_of) - Date.parse(lbBefore.as_of)).toBe(86_400_000);
    // A recomputed market has a new answer, so its old ETag no longer matches.
    const next = await call(`/api/v1/dcpi/scores/${moved[0]}`, 'enterprise', { 'If-None-Match': etag! });
    expect(next.status).toBe(200);
    expect(next.headers.get('etag')).not.toBe(etag);
    expect(Date.parse(next.body.computed_at)).toBe(Date.parse(lbAfter.as_of));
  });
});
