import { describe, expect, it } from 'vitest';
import { MarketCompare, MarketDetail, MarketList, PlatformStats } from '@dchub/core';
import { type KeyTier, useRestSandbox } from './support/sandbox.js';

/** The platform totals and the markets: the list per tier, one market, markets side by side. */
const { sb, call, resetLimits } = useRestSandbox();
const facilitiesOf = (slug: string) => sb.ctx.data.infra.facilities.filter((f) => f.market === slug);

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
