import {
  AiCapacityIndex,
  AiCapacityIndexQuery,
  DCPI_CITATION,
  DCPI_LEADERBOARD_CSV_COLUMNS,
  DCPI_VERDICTS,
  DcpiLeaderboard,
  DcpiLeaderboardQuery,
  DcpiScoreList,
  DcpiScoreListQuery,
  DcpiScoreResponse,
  ErrorBody,
  MarketCompare,
  MarketCompareQuery,
  MarketDetail,
  MarketList,
  PlatformStats,
  type AiCapacityMarketT,
} from '@dchub/core';
import type { Context } from 'hono';
import type { SandboxEnv } from '../app.js';
import { DAY_MS } from '../clock.js';
import type { SandboxContext, Tier } from '../context.js';
import type { Dataset } from '../dataset.js';
import {
  dcpiExtras,
  dcpiReasoning,
  discoveredAt,
  etaDays,
  facilitiesByMarket,
  kwhCents,
  mwBand,
  recomputeIso,
  resolveMarket,
  scoreBand,
} from '../data/market-extras.js';
import type { Facility } from '../data/infrastructure.js';
import { lastChangeDay, RECOMPUTE_HOUR_UTC, scoreMarket, scoringDay, verdictOf, type DcpiScore } from '../data/markets.js';
import { METROS, type Metro } from '../data/metros.js';
import { badRequest } from '../http.js';
import { CITATION, CITE, SOURCE, SYNTHETIC_NOTICE } from '../labels.js';
import { gatedMarkers, isKeyless, PRICING_URL, SIGNUP_URL } from '../policy/gating.js';
import { atLeast } from '../policy/tiers.js';
import type { RouteRegistry } from '../registry.js';
import { hexId, Rng, round } from '../rng.js';
import { SEED_MARKETS } from './briefs.js';

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
/** `generated_at` as the legacy endpoints write it (no zone designator). */
const legacyTime = (ms: number) => new Date(ms).toISOString().replace('Z', '');

// ---------------------------------------------------------------- markets list

/** Rows of /api/v1/markets/list per tier (notes §2.2); Infinity = all. */
export const MARKET_LIST_ROWS: Record<Tier, number> = {
  anonymous: 5, free: 10, starter: 10, developer: 50, pro: Infinity, enterprise: Infinity,
};

const CURATED = new Set<string>(SEED_MARKETS);

interface MarketRow {
  id: string;
  slug: string;
  name: string;
  cities: string[];
  facility_count: number;
  total_power_mw: number;
  pipeline_mw_total: number;
  avg_kwh_price_usd: number | null;
  state: string;
  country: string;
  iso: string;
  auto_discovered?: true;
  international?: true;
}

function marketRows(data: Dataset): MarketRow[] {
  return data.lazy('markets:list-rows', () => {
    const byMarket = facilitiesByMarket(data);
    const rows = METROS.map((m): MarketRow => {
      const fs = byMarket.get(m.slug) ?? [];
      const cents = kwhCents(data.seed, m);
      const curated = CURATED.has(m.slug);
      return {
        // The real list keys curated markets with a space (`northern virginia`); the slug is always hyphenated.
        id: curated ? m.slug.replace(/-/g, ' ') : m.slug,
        slug: m.slug,
        name: m.name,
        cities: [...new Set(fs.map((f) => f.city))].slice(0, 5),
        facility_count: fs.length,
        total_power_mw: round(sum(fs.map((f) => f.power_mw)), 1),
        pipeline_mw_total: round(sum(fs.filter((f) => f.status !== 'operational').map((f) => f.power_mw)), 1),
        avg_kwh_price_usd: cents === null ? null : round(cents / 100, 4),
        state: m.state,
        country: m.country,
        iso: m.iso,
        ...(m.country === 'US' && !curated ? { auto_discovered: true as const } : {}),
        ...(m.country !== 'US' ? { international: true as const } : {}),
      };
    });
    return rows.sort((a, b) => b.facility_count - a.facility_count || a.slug.localeCompare(b.slug));
  });
}

function upsellOf(tier: Tier, total: number): string | null {
  switch (tier) {
    case 'anonymous':
      return `Sign up free for ${MARKET_LIST_ROWS.free} markets`;
    case 'free':
    case 'starter':
      return `Upgrade to Developer for ${MARKET_LIST_ROWS.developer} markets with pipeline MW and power prices`;
    case 'developer':
      return `Upgrade to Pro for all ${total} markets`;
    default:
      return null;
  }
}

// ---------------------------------------------------------------- market detail / compare

function marketSummary(ctx: SandboxContext, m: Metro) {
  const fs = facilitiesByMarket(ctx.data).get(m.slug) ?? [];
  const byOp = new Map<string, Facility[]>();
  for (const f of fs) byOp.set(f.operator, [...(byOp.get(f.operator) ?? []), f]);
  const providers = [...byOp.entries()]
    .map(([name, list]) => ({ name, facilities: list.length, power_mw: round(sum(list.map((f) => f.power_mw)), 1) }))
    .sort((a, b) => b.facilities - a.facilities || b.power_mw - a.power_mw || a.name.localeCompare(b.name));
  const total = round(sum(fs.map((f) => f.power_mw)), 1);
  return { fs, providers, total, avg: fs.length ? round(total / fs.length, 1) : 0 };
}

// ---------------------------------------------------------------- DCPI

function scoreRow(seed: string, s: DcpiScore) {
  const x = dcpiExtras(seed, s);
  return {
    market_slug: s.market_slug,
    market_name: s.market_name,
    state: s.state,
    iso: s.iso,
    latitude: s.latitude,
    longitude: s.longitude,
    constraint_score: s.constraint_score,
    excess_power_score: s.excess_power_score,
    time_to_power_months: s.time_to_power_months,
    verdict: s.verdict,
    top_risks_json: x.top_risks_json,
    top_opportunities_json: x.top_opportunities_json,
    computed_at: s.computed_at,
    composite_score: s.composite_score,
  };
}

/** Least-squares slope per day of `ys` sampled once a day. */
function slope(ys: readonly number[]): number {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = sum(ys) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, i) => {
    num += (i - mx) * (y - my);
    den += (i - mx) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

function history30(seed: string, m: Metro, day: number): DcpiScore[] {
  const out: DcpiScore[] = [];
  for (let d = day - 29; d <= day; d++) out.push(scoreMarket(seed, m, lastChangeDay(seed, m.slug, d)));
  return out;
}

function forecastOf(hist: DcpiScore[]) {
  const now = hist[hist.length - 1];
  const trend = {
    excess_power_score: round(slope(hist.map((h) => h.excess_power_score)), 4),
    constraint_score: round(slope(hist.map((h) => h.constraint_score)), 4),
    time_to_power_months: round(slope(hist.map((h) => h.time_to_power_months)), 4),
  };
  const clip = (v: number) => Math.max(0, Math.min(100, v));
  const projection: Record<string, unknown> = {};
  for (const [label, days] of [['3mo', 91], ['6mo', 182], ['12mo', 365], ['24mo', 730]] as const) {
    const excess = round(clip(now.excess_power_score + trend.excess_power_score * days), 1);
    const constraint = round(clip(now.constraint_score + trend.constraint_score * days), 1);
    const ttp = round(Math.max(0, now.time_to_power_months + trend.time_to_power_months * days), 1);
    const implied = verdictOf(excess, constraint);
    projection[label] = {
      excess_power_score: excess,
      constraint_score: constraint,
      time_to_power_months: ttp,
      implied_verdict: implied,
      verdict_change_from_now: implied !== now.verdict,
    };
  }
  return {
    available: true,
    method: 'linear_regression',
    samples_in_30d: hist.length,
    trend_per_day: trend,
    projection,
    license: 'CC-BY-4.0',
    disclaimer: 'Straight-line projection of the last 30 daily DCPI samples; not a forecast of grid events. Sandbox: synthetic data.',
  };
}

const etagOf = (body: unknown) => `"${hexId(20, 'dcpi', JSON.stringify(body))}"`;
const etagMatches = (header: string | undefined, etag: string) =>
  !!header && header.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag);

const DCPI_SORTS: Record<string, { key: 'excess' | 'constraint' | 'time_to_power' | 'composite' }> = {
  excess: { key: 'excess' },
  constraint: { key: 'constraint' },
  time_to_power: { key: 'time_to_power' },
  ttp: { key: 'time_to_power' },
  composite: { key: 'composite' },
  rank: { key: 'composite' },
};

const byComposite = (a: DcpiScore, b: DcpiScore) => b.composite_score - a.composite_score || a.market_slug.localeCompare(b.market_slug);

const csvField = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

// ---------------------------------------------------------------- AI capacity index

const AI_READY_MIN_MW = 20;

export function aiCapacityMarkets(ctx: SandboxContext, day: number, horizon: number): AiCapacityMarketT[] {
  const byMarket = facilitiesByMarket(ctx.data);
  const rows: AiCapacityMarketT[] = [];
  for (const m of METROS) {
    const fs = byMarket.get(m.slug) ?? [];
    const active = fs.filter((f) => f.status === 'operational');
    const operators = new Set(active.map((f) => f.operator));
    if (active.length < 3 || operators.size < 2) continue;
    const arriving = fs.filter((f) => {
      const eta = etaDays(ctx.seed, f, day);
      return eta !== null && eta <= horizon;
    });
    const stats = ctx.data.stats.get(m.slug)!;
    const vacancy = stats.vacancy_pct / 100;
    const installed = sum(active.map((f) => f.power_mw));
    const arrivingMw = sum(arriving.map((f) => f.power_mw));
    const big = (f: Facility) => f.power_mw >= AI_READY_MIN_MW;
    const deployable = round(installed * vacancy + arrivingMw, 1);
    const aiReady = round(sum(active.filter(big).map((f) => f.power_mw)) * vacancy + sum(arriving.filter(big).map((f) => f.power_mw)), 1);
    const hyperscale = [...active, ...arriving].some((f) => f.power_mw > 50);
    const score = round(
      Math.min(150, active.length * 2.5) + Math.min(100, operators.size * 8) + 0.3 * Math.min(500, (installed + arrivingMw) * 0.15) + (hyperscale ? 50 : 0),
      1,
    );
    rows.push({
      rank: 0,
      market: `${m.slug}-${m.state.toLowerCase()}`,
      market_slug: m.slug,
      city: m.name,
      state: m.state || null,
      country: m.country,
      deployable_mw: { value: deployable, note: `Vacant share of installed capacity plus pipeline energising within ${horizon} days` },
      ai_ready_mw: {
        value: aiReady,
        basis: 'proxy',
        note: `Deployable MW in facilities of ${AI_READY_MIN_MW} MW or more (density proxy, not metered GPU load)`,
      },
      facility_count: active.length,
      total_installed_mw: round(installed, 1),
      operator_count: operators.size,
      hyperscale_ready: hyperscale,
      score,
      pipeline_mw: round(arrivingMw, 1),
      pipeline_total_mw: stats.pipeline_mw,
      metered_facility_count: active.filter((f) => f.power_mw >= 5).length,
      tracked_count: fs.length,
      horizon_days: horizon,
    });
  }
  rows.sort(
    (a, b) =>
      (b.ai_ready_mw.value ?? 0) - (a.ai_ready_mw.value ?? 0) ||
      (b.deployable_mw.value ?? 0) - (a.deployable_mw.value ?? 0) ||
      a.market.localeCompare(b.market),
  );
  rows.forEach((r, i) => (r.rank = i + 1));
  return rows;
}

function teaseAiRow(r: AiCapacityMarketT): AiCapacityMarketT {
  return {
    ...r,
    score: null,
    score_band: scoreBand(r.score ?? 0),
    deployable_mw: { value: null, band: mwBand(r.deployable_mw.value ?? 0), note: r.deployable_mw.note },
    ai_ready_mw: { ...r.ai_ready_mw, value: null, band: mwBand(r.ai_ready_mw.value ?? 0) },
    total_installed_mw: null,
    total_installed_mw_band: mwBand(r.total_installed_mw ?? 0),
    pipeline_mw: null,
    pipeline_mw_band: mwBand(r.pipeline_mw ?? 0),
    pipeline_total_mw: null,
  };
}

const AI_LOCKED_FIELDS = ['ai_ready_mw', 'deployable_mw', 'pipeline_mw', 'pipeline_total_mw', 'score', 'total_installed_mw'];

// ---------------------------------------------------------------- routes

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    method: 'get',
    path: '/api/v1/stats',
    summary: 'Platform totals: facilities, countries, providers, markets, articles, transactions, capacity MW',
    tags: ['Markets'],
    responses: { 200: { description: 'Totals (legacy `success`/`data` answer)', schema: PlatformStats } },
    handler: (c) => {
      const facilities = ctx.data.infra.facilities;
      const totals = ctx.data.lazy('markets:platform-stats', () => {
        const countries = new Map<string, number>();
        const providers = new Map<string, number>();
        const byStatus: Record<string, number> = {};
        for (const f of facilities) {
          countries.set(f.country, (countries.get(f.country) ?? 0) + 1);
          providers.set(f.operator, (providers.get(f.operator) ?? 0) + 1);
          byStatus[f.status] = (byStatus[f.status] ?? 0) + 1;
        }
        const top = (m: Map<string, number>) =>
          Object.fromEntries([...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10));
        const pipeline = facilities.filter((f) => f.status !== 'operational');
        // Articles and transactions are fixed synthetic totals of this seed (the feeds are served elsewhere).
        const rng = new Rng(`${ctx.seed}|platform-counts`);
        return {
          countries: countries.size,
          providers: providers.size,
          topCountries: top(countries),
          topProviders: top(providers),
          byStatus,
          powerMw: round(sum(facilities.filter((f) => f.status === 'operational').map((f) => f.power_mw)), 1),
          pipelineCount: pipeline.length,
          pipelineMw: round(sum(pipeline.map((f) => f.power_mw)), 1),
          articles: rng.int(38_000, 52_000),
          transactions: rng.int(1_800, 2_600),
        };
      });
      const markets = METROS.length;
      c.header('Cache-Control', 'public, max-age=60');
      return c.json({
        success: true,
        data: {
          total_facilities: facilities.length,
          total_power_mw: totals.powerMw,
          total_mw: totals.powerMw,
          total_substations: ctx.data.infra.substations.length,
          total_providers: totals.providers,
          total_countries: totals.countries,
          countries: totals.countries,
          total_markets: markets,
          total_articles: totals.articles,
          total_transactions: totals.transactions,
          total_gas_pipelines: ctx.data.infra.gasPipelines.length,
          top_countries: totals.topCountries,
          top_providers: totals.topProviders,
          by_status: totals.byStatus,
          pipeline_count: totals.pipelineCount,
          pipeline_mw: totals.pipelineMw,
          pipeline_gw: round(totals.pipelineMw / 1000, 2),
          _counts_note: 'Synthetic sandbox totals; total_articles and total_transactions are fixed figures of this seed.',
        },
        generated_at: legacyTime(ctx.clock.nowMs()),
        version: 'sandbox',
        facilities: facilities.length,
        markets,
        deals: totals.transactions,
        transactions: totals.transactions,
        articles: totals.articles,
        countries: totals.countries,
        providers: totals.providers,
        capacity_mw: totals.powerMw,
        substations: ctx.data.infra.substations.length,
        gas_pipelines: ctx.data.infra.gasPipelines.length,
        _source: SOURCE,
        note: SYNTHETIC_NOTICE,
      });
    },
  });

  const listHandler = (canonical: boolean) => (c: Context<SandboxEnv>) => {
    const tier = c.get('tier');
    const all = marketRows(ctx.data);
    const cap = MARKET_LIST_ROWS[tier];
    const shown = all.slice(0, Math.min(all.length, cap));
    const priced = atLeast(tier, 'starter');
    const data = shown.map((row) => {
      const { pipeline_mw_total, avg_kwh_price_usd, ...rest } = row;
      return priced ? { ...rest, pipeline_mw_total, avg_kwh_price_usd } : rest;
    });
    const full = shown.length === all.length;
    if (!canonical) c.header('X-Canonical-Path', '/api/v1/markets/list');
    return c.json({
      success: true,
      count: data.length,
      total: all.length,
      tier,
      locked: all.length - data.length,
      upsell: full ? null : upsellOf(tier, all.length),
      upgrade_url: full ? null : PRICING_URL,
      ...(tier === 'anonymous' ? { signup_url: SIGNUP_URL } : {}),
      data,
      _source: SOURCE,
      note: SYNTHETIC_NOTICE,
    });
  };
  const listResponses = { 200: { description: 'Scored markets, rows capped per tier', schema: MarketList } };
  r.add({
    method: 'get',
    path: '/api/v1/markets/list',
    summary: 'All scored markets with names, counts, pipeline MW and price per kWh (rows capped per tier)',
    tags: ['Markets'],
    responses: listResponses,
    handler: listHandler(true),
  });
  r.add({
    method: 'get',
    path: '/api/v1/markets',
    summary: 'Tracked markets with summary statistics (same answer as /api/v1/markets/list)',
    tags: ['Markets'],
    responses: listResponses,
    handler: listHandler(false),
  });

  // Declared before /api/v1/markets/:market_name so the literal path wins.
  r.add({
    method: 'get',
    path: '/api/v1/markets/compare',
    summary: 'Side-by-side comparison of 2 to 4 markets',
    tags: ['Markets'],
    query: MarketCompareQuery,
    responses: {
      200: { description: 'Comparison', schema: MarketCompare },
      400: { description: '`markets` missing or not 2–4 names (code VALIDATION_ERROR)', schema: ErrorBody },
      404: { description: 'Unknown markets, with `available_markets`', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const names = (query.markets ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (names.length === 0) {
        return c.json({ error: 'markets: parameter required (comma-separated)', code: 'VALIDATION_ERROR', param: 'markets' }, 400);
      }
      if (names.length < 2 || names.length > 4) {
        return c.json({ error: `markets: provide 2-4 markets to compare, got ${names.length}`, code: 'VALIDATION_ERROR', param: 'markets' }, 400);
      }
      const resolved = names.map((n) => ({ n, r: resolveMarket(n) }));
      const unknown = resolved.filter((x) => !x.r).map((x) => x.n);
      if (unknown.length) {
        return c.json(
          {
            error: `Unknown markets: [${unknown.map((u) => `'${u}'`).join(', ')}]`,
            code: 'NOT_FOUND',
            available_markets: marketRows(ctx.data).slice(0, 20).map((row) => row.slug),
          },
          404,
        );
      }
      const comparison = resolved.map(({ r: res }) => {
        const m = res!.metro;
        const s = marketSummary(ctx, m);
        return {
          market: m.slug,
          display_name: m.name,
          metrics: {
            facilities: s.fs.length,
            total_power_mw: s.total,
            avg_power_mw: s.avg,
            max_power_mw: s.fs.length ? Math.max(...s.fs.map((f) => f.power_mw)) : 0,
            providers: s.providers.length,
            operational: s.fs.filter((f) => f.status === 'operational').length,
            pipeline: s.fs.filter((f) => f.status !== 'operational').length,
          },
          top_providers: s.providers.slice(0, 5).map((p) => p.name),
        };
      });
      return c.json({ success: true, comparison, generated_at: legacyTime(ctx.clock.nowMs()), _source: SOURCE, note: SYNTHETIC_NOTICE });
    },
  });

  r.add({
    method: 'get',
    path: '/api/v1/markets/:market_name',
    summary: 'One market: stats, top providers, status breakdown, recent facilities',
    tags: ['Markets'],
    pathParams: { market_name: { description: 'Market slug or name (case-insensitive; hyphens and spaces are equal)' } },
    responses: {
      200: { description: 'Market details', schema: MarketDetail },
      404: { description: '`{"error":"Market not found","code":"NOT_FOUND"}`', schema: ErrorBody },
    },
    handler: (c) => {
      const res = resolveMarket(c.req.param('market_name') ?? '');
      if (!res) return c.json({ error: 'Market not found', code: 'NOT_FOUND' }, 404);
      const m = res.metro;
      const s = marketSummary(ctx, m);
      const byStatus: Record<string, number> = {};
      for (const f of s.fs) byStatus[f.status] = (byStatus[f.status] ?? 0) + 1;
      const recent = s.fs
        .map((f) => ({ f, at: discoveredAt(ctx.seed, f.id) }))
        .sort((a, b) => b.at.localeCompare(a.at) || a.f.id - b.f.id)
        .slice(0, 5)
        .map(({ f, at }) => ({ id: f.id, name: f.name, provider: f.operator, city: f.city, power_mw: f.power_mw, status: f.status, discovered_at: at }));
      return c.json({
        success: true,
        market: {
          id: CURATED.has(m.slug) ? m.slug.replace(/-/g, ' ') : m.slug,
          slug: m.slug,
          name: m.name,
          cities: [...new Set(s.fs.map((f) => f.city))].slice(0, 5),
          state: m.state,
          country: m.country,
          iso: m.iso,
        },
        stats: { facility_count: s.fs.length, total_power_mw: s.total, avg_power_mw: s.avg, provider_count: s.providers.length },
        top_providers: s.providers.slice(0, 10),
        by_status: byStatus,
        recent_facilities: recent,
        _source: SOURCE,
        note: SYNTHETIC_NOTICE,
      });
    },
  });

  r.add({
    method: 'get',
    path: '/api/v1/dcpi/scores',
    summary: 'DCPI scores of every market (sort and filters; numbers masked below the Developer plan)',
    tags: ['DCPI'],
    query: DcpiScoreListQuery,
    responses: {
      200: { description: 'Scores', schema: DcpiScoreList },
      400: { description: 'Bad sort or verdict', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const sortName = (query.sort ?? query.sort_by ?? 'excess').toLowerCase();
      const sort = DCPI_SORTS[sortName];
      if (!sort) return badRequest(c, query.sort ? 'sort' : 'sort_by', `must be one of ${Object.keys(DCPI_SORTS).join(', ')}, got "${sortName}"`);
      const verdict = query.verdict?.toUpperCase();
      if (verdict && !(DCPI_VERDICTS as readonly string[]).includes(verdict)) {
        return badRequest(c, 'verdict', `must be one of ${DCPI_VERDICTS.join(', ')}, got "${query.verdict}"`);
      }
      const eq = (a: string | undefined, b: string) => !a || a.toLowerCase() === b.toLowerCase();
      let scores = ctx.data
        .dcpi(scoringDay(ctx.clock.nowMs()))
        .filter((s) => (!verdict || s.verdict === verdict) && eq(query.iso, s.iso) && eq(query.state, s.state));
      const cmp: Record<string, (a: DcpiScore, b: DcpiScore) => number> = {
        excess: (a, b) => b.excess_power_score - a.excess_power_score,
        constraint: (a, b) => b.constraint_score - a.constraint_score,
        time_to_power: (a, b) => a.time_to_power_months - b.time_to_power_months,
        composite: (a, b) => b.composite_score - a.composite_score,
      };
      scores = [...scores].sort((a, b) => cmp[sort.key](a, b) || a.market_slug.localeCompare(b.market_slug));
      const total = scores.length;
      const tier = c.get('tier');
      const full = atLeast(tier, 'developer');
      let limit = query.limit ?? 0;
      if (tier === 'anonymous') limit = limit === 0 ? 10 : Math.min(limit, 10);
      if (limit > 0) scores = scores.slice(0, limit);
      const rows = scores.map((s) => {
        const row = scoreRow(ctx.seed, s);
        if (full) return row;
        return {
          ...row,
          composite_score: null,
          excess_power_score: null,
          constraint_score: null,
          time_to_power_months: null,
          top_risks_json: null,
          top_opportunities_json: null,
          locked: true,
        };
      });
      return c.json({
        scores: rows,
        count: rows.length,
        sort: sort.key,
        filters: { verdict: verdict ?? null, iso: query.iso ?? null, state: query.state ?? null },
        ...(full
          ? {}
          : {
              ...gatedMarkers(total, rows.length, 'DEVELOPER'),
              _locked_fields: ['composite_score', 'constraint_score', 'excess_power_score', 'time_to_power_months', 'top_opportunities_json', 'top_risks_json'],
            }),
        _source: SOURCE,
        citation: DCPI_CITATION,
        note: SYNTHETIC_NOTICE,
      });
    },
  });

  r.add({
    method: 'get',
    path: '/api/v1/dcpi/scores/:market_slug',
    summary: 'DCPI of one market: verdict, composite, excess power, constraint, time to power, inputs',
    tags: ['DCPI'],
    pathParams: { market_slug: { description: 'Market slug (aliases such as nova, dfw, sv are accepted)' } },
    responses: {
      200: { description: 'Score (ETag; If-None-Match → 304)', schema: DcpiScoreResponse },
      304: { description: 'Not modified' },
      404: { description: '`{"error":"market not found","slug":...}`', schema: ErrorBody },
    },
    handler: (c) => {
      const requested = c.req.param('market_slug') ?? '';
      const res = resolveMarket(requested);
      if (!res) return c.json({ error: 'market not found', slug: requested }, 404);
      const day = scoringDay(ctx.clock.nowMs());
      const scores = ctx.data.dcpi(day);
      const idx = scores.findIndex((s) => s.market_slug === res.metro.slug);
      const s = scores[idx];
      const x = dcpiExtras(ctx.seed, s);
      const hist = history30(ctx.seed, res.metro, day);
      const old = hist[0];
      const narrativeOff = ['0', 'false', 'no'].includes((c.req.query('narrative') ?? '').toLowerCase());
      const body = {
        id: idx + 1,
        ...scoreRow(ctx.seed, s),
        queue_capacity_mw: x.queue_capacity_mw,
        queue_wait_months: s.queue_wait_months,
        reserve_margin_pct: s.reserve_margin_pct,
        gen_additions_12mo_mw: s.gen_additions_12mo_mw,
        curtailment_pct: s.curtailment_pct,
        stranded_capacity_mw: s.stranded_capacity_mw,
        emergency_count_30d: s.emergency_count_30d,
        tier_required: 'free',
        trend_30d: {
          window_days: 30,
          excess_power_score_delta: round(s.excess_power_score - old.excess_power_score, 1),
          constraint_score_delta: round(s.constraint_score - old.constraint_score, 1),
          composite_score_delta: round(s.composite_score - old.composite_score, 1),
          verdict_30d_ago: old.verdict,
        },
        published: true,
        quality_score: x.quality_score,
        avg_kwh_cents: x.avg_kwh_cents,
        data_basis: 'synthetic',
        method_version: '2.3.0',
        ...(res.aliased ? { _requested_slug: res.requested, _canonical_slug: s.market_slug } : {}),
        ...(narrativeOff
          ? {}
          : {
              narrative: {
                text: `${dcpiReasoning(s)} Sandbox narrative generated from a template over synthetic inputs.`,
                model: 'template (sandbox)',
                license: 'CC-BY-4.0',
              },
            }),
        forecast: forecastOf(hist),
        citation: DCPI_CITATION,
        cite_url: `https://dchub.cloud/dcpi/${s.market_slug}`,
        _source: SOURCE,
        note: SYNTHETIC_NOTICE,
      };
      const etag = etagOf(body);
      c.header('ETag', etag);
      c.header('Cache-Control', 'public, max-age=120, stale-while-revalidate=300');
      if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304);
      return c.json(body);
    },
  });

  r.add({
    method: 'get',
    path: '/api/v1/dcpi/leaderboard',
    summary: 'Markets ranked by DCPI composite (JSON or CSV)',
    tags: ['DCPI'],
    query: DcpiLeaderboardQuery,
    responses: {
      200: { description: 'Leaderboard (CSV with format=csv)', schema: DcpiLeaderboard },
      400: { description: 'Bad verdict, limit or format', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const verdict = query.verdict?.toUpperCase();
      if (verdict && !(DCPI_VERDICTS as readonly string[]).includes(verdict)) {
        return badRequest(c, 'verdict', `must be one of ${DCPI_VERDICTS.join(', ')}, got "${query.verdict}"`);
      }
      const format = (query.format ?? 'json').toLowerCase();
      if (format !== 'json' && format !== 'csv') return badRequest(c, 'format', `must be json or csv, got "${query.format}"`);
      const day = scoringDay(ctx.clock.nowMs());
      const rows = ctx.data
        .dcpi(day)
        .filter((s) => !verdict || s.verdict === verdict)
        .sort(byComposite)
        .slice(0, query.limit ?? 25)
        .map((s, i) => ({
          rank: i + 1,
          market_slug: s.market_slug,
          market_name: s.market_name,
          iso: s.iso,
          state: s.state,
          excess_power_score: s.excess_power_score,
          constraint_score: s.constraint_score,
          quality_score: dcpiExtras(ctx.seed, s).quality_score,
          time_to_power_months: s.time_to_power_months,
          verdict: s.verdict,
          computed_at: s.computed_at,
          url: `https://dchub.cloud/dcpi/${s.market_slug}`,
          composite_score: s.composite_score,
          reasoning: dcpiReasoning(s),
        }));
      c.header('Cache-Control', 'public, max-age=300, must-revalidate');
      if (format === 'csv') {
        const lines = [
          DCPI_LEADERBOARD_CSV_COLUMNS.join(','),
          ...rows.map((row) => DCPI_LEADERBOARD_CSV_COLUMNS.map((k) => csvField(row[k])).join(',')),
        ];
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', 'attachment; filename="dcpi-leaderboard.csv"');
        return c.body(lines.join('\r\n') + '\r\n');
      }
      return c.json({
        as_of: recomputeIso(day, RECOMPUTE_HOUR_UTC),
        count: rows.length,
        filter: { verdict: verdict ?? null, excludes_low_signal: true },
        leaderboard: rows,
        methodology_url: 'https://dchub.cloud/dcpi#methodology',
        citation: DCPI_CITATION,
        _source: SOURCE,
        note: SYNTHETIC_NOTICE,
      });
    },
  });

  r.add({
    method: 'get',
    path: '/api/v1/ai-capacity-index',
    summary: 'Markets ranked by AI-ready deployable MW over a 30, 60 or 90 day horizon (keyless: gated preview)',
    tags: ['DCPI'],
    query: AiCapacityIndexQuery,
    responses: {
      200: { description: 'Index (keyless callers get banded values and §5.3 markers)', schema: AiCapacityIndex },
      400: { description: 'horizon not 30, 60 or 90, or bad limit', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const day = scoringDay(ctx.clock.nowMs());
      const all = aiCapacityMarkets(ctx, day, query.horizon);
      const shown = all.slice(0, query.limit);
      const gated = isKeyless(c.get('tier'));
      c.header('Cache-Control', 'public, max-age=900, s-maxage=3600');
      c.header('Vary', 'X-API-Key');
      return c.json({
        index_name: 'AI Compute Capacity Index',
        horizon_days: query.horizon,
        computed_at: new Date(day * DAY_MS + RECOMPUTE_HOUR_UTC * 3_600_000).toISOString().replace('.000Z', 'Z'),
        methodology: 'https://dchub.cloud/ai-capacity-index#methodology',
        result_count: shown.length,
        total_markets: all.length,
        markets: gated ? shown.map(teaseAiRow) : shown,
        data_sources: ['discovered_facilities', 'DCPI v2', 'pipeline (planned)'],
        next_refresh: 'daily 06:00 UTC (sandbox recompute)',
        ...(gated
          ? { ...gatedMarkers(all.length, shown.length, 'IDENTIFIED'), _locked_fields: AI_LOCKED_FIELDS, upgrade_url: SIGNUP_URL }
          : {}),
        _source: SOURCE,
        _cite: CITE,
        citation: CITATION,
        note: SYNTHETIC_NOTICE,
      });
    },
  });
}

