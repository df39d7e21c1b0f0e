import { beforeEach, describe, expect, it } from 'vitest';
import {
  MarketBriefAll,
  MarketBriefNotFound,
  MarketBriefResponse,
  parseBriefsCsv,
  type MarketBriefT,
} from '@dchub/core';
import { KEYS, useRestSandbox } from './support/sandbox.js';

const SEEDS = [
  'northern-virginia',
  'dallas',
  'phoenix',
  'atlanta',
  'chicago',
  'silicon-valley',
  'new-york',
  'portland',
  'hillsboro',
  'reno',
  'columbus',
  'salt-lake-city',
  'charlotte',
  'denver',
  'madison',
];

/** The market briefs as /all's pages (their limits, streaming, the CSV beside the JSON) and one by one. */
const { sb, call, resetLimits } = useRestSandbox();
beforeEach(resetLimits);

describe('GET /api/v1/market-brief/all: tier scoping (spec §5.2)', () => {
  it.each([
    ['anonymous', 5, SEEDS.slice(0, 5)],
    ['free', 5, SEEDS.slice(0, 5)],
    ['starter', 5, SEEDS.slice(0, 5)],
    ['developer', 5, SEEDS.slice(0, 5)],
    ['pro', 15, SEEDS],
  ] as const)('%s sees %i markets', async (tier, n, slugs) => {
    const r = await call('/api/v1/market-brief/all', tier);
    expect(r.status).toBe(200);
    const all = MarketBriefAll.parse(r.body);
    expect(all.tier).toBe(tier.toUpperCase());
    expect(all.count).toBe(n);
    expect(all.total_available).toBe(n);
    expect(all.briefs.map((b) => b.slug)).toEqual(slugs);
    expect(all.briefs.every((b) => ['BUILD', 'CAUTION', 'AVOID'].includes(b.hero.verdict))).toBe(true);
    expect(all).toMatchObject({ limit: 50, offset: 0, streamed: false });
    expect(r.headers.get('x-total-available')).toBe(String(n));
    expect(r.headers.get('x-market-brief-mode')).toBe('batch');
    expect(r.headers.get('cache-control')).toBe('public, max-age=21600, s-maxage=21600');
  });
  it('enterprise sees all 232 markets, paged by limit and offset', async () => {
    const first = MarketBriefAll.parse((await call('/api/v1/market-brief/all')).body);
    expect(first.total_available).toBe(232);
    expect(first.count).toBe(50);
    const next = MarketBriefAll.parse((await call('/api/v1/market-brief/all?limit=50&offset=50')).body);
    expect(next.offset).toBe(50);
    expect(new Set([...first.briefs, ...next.briefs].map((b) => b.slug)).size).toBe(100);
    const tail = MarketBriefAll.parse((await call('/api/v1/market-brief/all?limit=50&offset=220')).body);
    expect(tail.count).toBe(12);
  });
  it('keeps the body keys in the documented order', async () => {
    const r = await call('/api/v1/market-brief/all', 'free');
    expect(Object.keys(r.body)).toEqual([
      'as_of',
      'tier',
      'count',
      'total_available',
      'limit',
      'offset',
      'streamed',
      'briefs',
    ]);
  });
});

describe('limit maximum per tier', () => {
  it.each([
    ['anonymous', 50, 51],
    ['free', 50, 51],
    ['developer', 50, 51],
    ['pro', 500, 501],
    ['enterprise', 500, 501],
  ] as const)('%s: limit=%i passes, limit=%i is refused naming limit', async (tier, ok, over) => {
    const good = await call(`/api/v1/market-brief/all?limit=${ok}`, tier);
    expect(good.status).toBe(200);
    await resetLimits();
    for (const path of ['/api/v1/market-brief/all', '/api/v1/market-brief/all.csv', '/api/v1/market-brief/diff']) {
      const bad = await call(`${path}?limit=${over}`, tier);
      expect(bad.status).toBe(400);
      expect(bad.body.param).toBe('limit');
      expect(bad.body.error).toMatch(/^limit: must be at most/);
    }
  });
  it('refuses a negative offset naming offset', async () => {
    const r = await call('/api/v1/market-brief/all?offset=-1');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^offset:/);
  });
});

describe('streaming above 50 briefs', () => {
  it('streams an enterprise page of 200 briefs in chunks', async () => {
    const res = await fetch(`${sb.url}/api/v1/market-brief/all?limit=200`, {
      headers: { 'X-API-Key': KEYS.enterprise },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-market-brief-mode')).toBe('stream');
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      chunks++;
      text += decoder.decode(chunk, { stream: true });
    }
    expect(chunks).toBeGreaterThan(1);
    const all = MarketBriefAll.parse(JSON.parse(text));
    expect(all.streamed).toBe(true);
    expect(all.count).toBe(200);
    expect(all.briefs).toHaveLength(200);
    expect(Object.keys(JSON.parse(text))).toEqual([
      'as_of',
      'tier',
      'count',
      'total_available',
      'limit',
      'offset',
      'streamed',
      'briefs',
    ]);
  });
  it('answers 50 briefs in one batch', async () => {
    const r = await call('/api/v1/market-brief/all?limit=50');
    expect(r.headers.get('x-market-brief-mode')).toBe('batch');
    expect(r.body.streamed).toBe(false);
  });
  it('streams the CSV above 50 rows', async () => {
    const r = await call('/api/v1/market-brief/all.csv?limit=200');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-market-brief-mode')).toBe('stream');
    expect(r.headers.get('transfer-encoding')).toBe('chunked');
    expect(parseBriefsCsv(r.text)).toHaveLength(200);
    const small = await call('/api/v1/market-brief/all.csv?limit=20');
    expect(small.headers.get('x-market-brief-mode')).toBe('batch');
    expect(parseBriefsCsv(small.text)).toHaveLength(20);
  });
});

describe('CSV and JSON agree', () => {
  it('gives the same numbers for the same market and day, all 232 markets', async () => {
    const json = MarketBriefAll.parse((await call('/api/v1/market-brief/all?limit=500')).body);
    const csv = parseBriefsCsv((await call('/api/v1/market-brief/all.csv?limit=500')).text);
    expect(json.briefs).toHaveLength(232);
    expect(csv.map((r) => r.market_slug)).toEqual(json.briefs.map((b) => b.slug));
    csv.forEach((row, i) => {
      const b = json.briefs[i];
      expect(row).toMatchObject({
        market_name: b.hero.name,
        verdict: b.hero.verdict,
        composite_score: b.hero.composite_score,
        excess_power: b.hero.excess_power,
        constraint_score: b.hero.constraint_score,
        queue_wait_months: b.hero.queue_wait_months,
        iso: b.hero.iso,
        state: b.hero.state,
        operational_mw: b.kpis.operational_mw,
        pipeline_mw: b.kpis.pipeline_mw,
        facility_count: b.kpis.facility_count,
        vacancy_pct: b.kpis.vacancy_pct,
        lease_rate: b.kpis.lease_rate,
        top_operator: b.kpis.top_operator?.name ?? '',
        outlook_word_count: b.outlook.word_count,
        live_as_of: b.live_as_of.iso,
        computed_at: b.hero.computed_at,
      });
    });
  });
  it('the free CSV and JSON hold the same 5 markets', async () => {
    const json = MarketBriefAll.parse((await call('/api/v1/market-brief/all', 'free')).body);
    const csv = parseBriefsCsv((await call('/api/v1/market-brief/all.csv', 'free')).text);
    expect(csv.map((r) => [r.market_slug, r.composite_score])).toEqual(
      json.briefs.map((b) => [b.slug, b.hero.composite_score]),
    );
  });
});

describe('GET /api/v1/market-brief/{slug}', () => {
  const proSections = (b: MarketBriefT) => {
    expect(b.power_grid).not.toBeNull();
    expect(b.power_grid!.iso).toBe(b.hero.iso);
    expect(b.pipeline.length).toBeGreaterThan(0);
    expect(b.pipeline.length).toBeLessThanOrEqual(12);
    expect(b.operators.length).toBeGreaterThan(0);
    expect(b.operators.length).toBeLessThanOrEqual(5);
    expect(b.ma.length).toBeLessThanOrEqual(15);
    expect(b.comps.powered_shell.length).toBeLessThanOrEqual(8);
    expect(b.comps.land.length).toBeLessThanOrEqual(8);
    expect(b.risk).not.toBeNull();
    expect(b.paywall).toBeUndefined();
  };
  const teasers = (b: MarketBriefT) => {
    expect(b).toMatchObject({
      power_grid: null,
      pipeline: [],
      operators: [],
      ma: [],
      comps: { powered_shell: [], land: [] },
      risk: null,
    });
    expect(b.paywall).toMatchObject({
      required_tier: 'PRO',
      checkout_url: expect.any(String),
      blurb: expect.any(String),
    });
  };
  it('is complete for pro and enterprise', async () => {
    for (const tier of ['pro', 'enterprise'] as const) {
      const r = await call('/api/v1/market-brief/northern-virginia', tier);
      expect(r.status).toBe(200);
      const b = MarketBriefResponse.parse(r.body);
      expect(b.is_pro).toBe(true);
      expect(b.tier).toBe(tier.toUpperCase());
      proSections(b);
      const fs = sb.ctx.data.infra.facilities.filter(
        (f) => f.market === 'northern-virginia' && f.status !== 'operational',
      );
      expect(b.pipeline[0].power_mw).toBe(Math.max(...fs.map((f) => f.power_mw)));
    }
  });
  it.each(['anonymous', 'free', 'starter', 'developer'] as const)(
    'gives teasers and a paywall to %s (developer is not Pro)',
    async (tier) => {
      const r = await call('/api/v1/market-brief/dallas', tier);
      expect(r.status).toBe(200);
      const b = MarketBriefResponse.parse(r.body);
      expect(b.is_pro).toBe(false);
      teasers(b);
      // The free JSON still carries the full outlook and KPIs.
      expect(b.outlook.narrative_md.split(/\s+/).filter(Boolean)).toHaveLength(b.outlook.word_count);
      expect(b.kpis.facility_count).toBe(sb.ctx.data.infra.facilities.filter((f) => f.market === 'dallas').length);
    },
  );
  it.each([
    ['nova', 'northern-virginia'],
    ['ashburn', 'northern-virginia'],
    ['dfw', 'dallas'],
    ['Dallas-Fort-Worth', 'dallas'],
    ['sv', 'silicon-valley'],
    ['bay-area', 'silicon-valley'],
    ['nyc', 'new-york'],
    ['slc', 'salt-lake-city'],
  ])('resolves %s to %s', async (alias, canonical) => {
    const b = MarketBriefResponse.parse((await call(`/api/v1/market-brief/${alias}`, 'free')).body);
    expect(b.slug).toBe(canonical);
    expect(b.hero.slug).toBe(canonical);
    expect(b.requested).toBe(alias.toLowerCase());
    expect(b.redirect_to).toBe(canonical);
  });
  it('has no redirect for a canonical slug and matches /all', async () => {
    const b = MarketBriefResponse.parse((await call('/api/v1/market-brief/phoenix', 'pro')).body);
    expect(b.redirect_to).toBeNull();
    const all = MarketBriefAll.parse((await call('/api/v1/market-brief/all', 'pro')).body);
    const fromAll = all.briefs.find((x) => x.slug === 'phoenix')!;
    const {
      ok: _ok,
      requested: _r,
      redirect_to: _rt,
      tier: _t,
      is_pro: _p,
      _source,
      _cite,
      citation,
      note,
      ...single
    } = b as Record<string, unknown>;
    expect(single).toEqual(fromAll);
    expect(note).toMatch(/synthetic/i);
  });
  it('answers 404 market_not_found with sample markets', async () => {
    const r = await call('/api/v1/market-brief/atlantis', 'free');
    expect(r.status).toBe(404);
    const body = MarketBriefNotFound.parse(r.body);
    expect(body.slug).toBe('atlantis');
    expect(body.sample_markets.length).toBeGreaterThan(0);
    expect(body.sample_markets).toContain('northern-virginia');
  });
});
