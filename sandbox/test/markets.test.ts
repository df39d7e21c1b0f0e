import { describe, expect, it } from 'vitest';
import { AiCapacityIndex, DCPI_CITATION, DcpiLeaderboard, DcpiScoreList, DcpiScoreResponse } from '@dchub/core';
import { scoringDay } from '../src/data/markets.js';
import { moveClock, useRestSandbox } from './support/sandbox.js';

/** The DC Hub Power Index (scores, list, leaderboard), the AI capacity index, and their daily recompute. */
const { sb, call, resetLimits } = useRestSandbox();
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
    await moveClock(sb, { advance_seconds: 86_400 });
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
