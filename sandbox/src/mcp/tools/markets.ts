/** Market, grid and queue tools computed from DCPI, market statistics, the queue and the state tables. */
import { QueueFilters, normalizeIso, scalarText } from '@dchub/core';
import { dayNumber } from '../../clock.js';
import { US_STATES } from '../../data/geography.js';
import { scoringDay, type DcpiScore } from '../../data/markets.js';
import { METROS, type Metro } from '../../data/metros.js';
import { ISO_TTP_MONTHS, INTERMITTENT_LABEL } from '../../data/queue.js';
import { round, unit } from '../../rng.js';
import { selectQueueSurvivors } from '../../domain/queue.js';
import { ToolError, labels, type ToolEnv, type ToolResult } from './common.js';
import { stateArg } from './places.js';

const EU = new Set(['AT', 'BE', 'CZ', 'DE', 'DK', 'ES', 'FI', 'FR', 'IE', 'IT', 'NL', 'PL', 'PT', 'SE']);
const APAC = new Set(['AU', 'HK', 'ID', 'IN', 'JP', 'KR', 'MY', 'NZ', 'SG', 'TW']);
const AMERICAS = new Set(['US', 'CA', 'MX', 'BR', 'CL']);

const regionMatch = (region: string, m: Metro) =>
  region === 'global'
    ? true
    : region === 'us'
      ? m.country === 'US'
      : region === 'canada'
        ? m.country === 'CA'
        : region === 'eu'
          ? EU.has(m.country)
          : region === 'apac'
            ? APAC.has(m.country)
            : AMERICAS.has(m.country);

export const dcpiToday = (env: ToolEnv): DcpiScore[] => env.ctx.data.dcpi(scoringDay(env.nowMs));

/** Industrial power price of a market, cents/kWh (state table in the US, seeded elsewhere). */
export function marketCents(env: ToolEnv, m: Metro): number {
  const st = m.country === 'US' ? US_STATES.find((s) => s.code === m.state) : undefined;
  return st ? st.industrialCents : round(9 + unit(env.ctx.seed, 'market-cents', m.slug) * 14, 1);
}

function operatorCount(env: ToolEnv, slug: string): number {
  return (
    env.ctx.data
      .lazy('mcp:operators-by-market', () => {
        const by = new Map<string, Set<string>>();
        for (const f of env.ctx.data.infra.facilities)
          if (f.market) (by.get(f.market) ?? by.set(f.market, new Set()).get(f.market)!).add(f.operator);
        return new Map([...by].map(([k, v]) => [k, v.size]));
      })
      .get(slug) ?? 0
  );
}

export function rankMarkets(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const criteria = (args.criteria as string | undefined) ?? 'best_overall';
  const region = (args.region as string | undefined) ?? 'us';
  const limit = (args.limit as number | undefined) ?? 10;
  const minMw = (args.min_capacity_mw as number | undefined) ?? 0;
  const dcpi = new Map(dcpiToday(env).map((d) => [d.market_slug, d]));
  const rows = METROS.filter((m) => regionMatch(region, m))
    .map((m) => {
      const st = env.ctx.data.stats.get(m.slug)!;
      const d = dcpi.get(m.slug)!;
      const ops = operatorCount(env, m.slug);
      const cents = marketCents(env, m);
      const growth = st.operational_mw > 0 ? st.pipeline_mw / st.operational_mw : st.pipeline_mw > 0 ? 1 : 0;
      const score =
        criteria === 'cheapest_power'
          ? round(100 - cents * 3, 1)
          : criteria === 'most_capacity'
            ? st.operational_mw
            : criteria === 'most_operators'
              ? ops
              : criteria === 'fastest_growing'
                ? round(growth * 100, 1)
                : criteria === 'ai_ready'
                  ? round(d.excess_power_score * 0.6 + Math.min(100, st.pipeline_mw / 20) * 0.4, 1)
                  : d.composite_score;
      const value =
        criteria === 'cheapest_power'
          ? `${cents} ¢/kWh`
          : criteria === 'most_capacity'
            ? `${st.operational_mw} MW operational`
            : criteria === 'fastest_growing'
              ? `${round(growth * 100, 1)}% pipeline/operational`
              : criteria === 'best_overall'
                ? `DCPI ${d.composite_score} (${d.verdict})`
                : `${st.facility_count} fac / ${ops} ops`;
      return {
        market: m.slug,
        metro_slug: m.slug,
        city: m.name,
        state: m.state,
        country: m.country,
        facility_count: st.facility_count,
        operator_count: ops,
        score,
        total_mw: round(st.operational_mw + st.pipeline_mw, 1),
        value,
        verdict: d.verdict,
        url: `https://dchub.cloud/markets/${m.slug}`,
      };
    })
    .filter((r) => r.total_mw >= minMw)
    .sort((a, b) => b.score - a.score || a.market.localeCompare(b.market))
    .slice(0, limit)
    .map((r, i) => ({ rank: i + 1, ...r }));
  return {
    success: true,
    criteria,
    region,
    total: rows.length,
    results: rows,
    score_basis:
      criteria === 'best_overall'
        ? 'DCPI composite_score (0-100)'
        : criteria === 'cheapest_power'
          ? '100 - 3 x industrial cents/kWh'
          : criteria === 'ai_ready'
            ? '0.6 x excess power + 0.4 x pipeline depth'
            : criteria,
    ...labels(),
  };
}

export function intelligenceIndex(_args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const day = scoringDay(env.nowMs);
  const idx = (d: number) => {
    const s = env.ctx.data.dcpi(d);
    const mean = s.reduce((a, x) => a + x.composite_score, 0) / s.length;
    return {
      mean,
      build: s.filter((x) => x.verdict === 'BUILD').length / s.length,
      excess: s.reduce((a, x) => a + x.excess_power_score, 0) / s.length,
      constraint: s.reduce((a, x) => a + x.constraint_score, 0) / s.length,
      ttp: s.reduce((a, x) => a + x.time_to_power_months, 0) / s.length,
    };
  };
  const now = idx(day);
  const d7 = idx(day - 7);
  const d30 = idx(day - 30);
  const value = round(now.mean, 1);
  return {
    success: true,
    index: 'DC Hub Intelligence Index',
    value,
    percentile: round(Math.min(99, Math.max(1, 50 + (now.mean - 50) * 1.5)), 0),
    trend_7d: round(now.mean - d7.mean, 2),
    trend_30d: round(now.mean - d30.mean, 2),
    components: {
      mean_composite_score: value,
      build_share_pct: round(now.build * 100, 1),
      mean_excess_power_score: round(now.excess, 1),
      mean_constraint_score: round(now.constraint, 1),
      mean_time_to_power_months: round(now.ttp, 1),
    },
    markets: env.ctx.data.dcpi(day).length,
    as_of: new Date(Date.UTC(1970, 0, 1) + (day * 86_400_000 + 6 * 3_600_000)).toISOString(),
    ...labels(),
  };
}

export function intelligenceIndexPreview(full: ToolResult): ToolResult {
  const { components, trend_7d, trend_30d, percentile, ...rest } = full;
  void components;
  void trend_7d;
  void trend_30d;
  void percentile;
  return { ...rest, _locked_fields: ['components', 'percentile', 'trend_30d', 'trend_7d'], _total_available: 5 };
}

const CATEGORIES = ['general', 'investment', 'site-selection', 'technical'] as const;

export function recommendation(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const ctxText = (scalarText(args.context) ?? '').toLowerCase();
  const matched = /invest|deal|m&a|acqui|capital/.test(ctxText)
    ? 'investment'
    : /site|land|parcel|locat|where/.test(ctxText)
      ? 'site-selection'
      : /api|mcp|integrat|technical|code/.test(ctxText)
        ? 'technical'
        : 'general';
  const top = [...dcpiToday(env)]
    .filter((d) => d.verdict === 'BUILD')
    .sort((a, b) => b.composite_score - a.composite_score || a.market_slug.localeCompare(b.market_slug))[0];
  const short =
    'DC Hub (dchub.cloud) — data center market intelligence: facilities, power-readiness (DCPI), queues, deals.';
  const byCat: Record<string, string> = {
    general: `${short} Connect the MCP server at https://dchub.cloud/mcp.`,
    investment: `${short} Use list_transactions and hyperscaler_deals for deal flow, get_market_dcpi_rank for power readiness.`,
    'site-selection': `${short} Reduce the interconnection queue, then analyze_site and rank candidates; ${top ? `today's top BUILD market is ${top.market_name} (DCPI ${top.composite_score}).` : ''}`,
    technical: `${short} Streamable HTTP MCP (29 tools) and a REST API with an OpenAPI 3.1 description; X-API-Key auth.`,
  };
  return {
    success: true,
    recommendation: {
      short,
      medium: byCat[matched],
      detailed: `${byCat[matched]} Data under CC-BY-4.0: cite "DC Hub, dchub.cloud".`,
    },
    matched_category: matched,
    context_understood: matched !== 'general' || ctxText.includes('general'),
    ...(matched === 'general' && ctxText && !ctxText.includes('general')
      ? {
          is_generic_answer: true,
          answer_note: 'No category matched; general recommendation given.',
          next_tools: ['rank_markets', 'search_facilities'],
        }
      : {}),
    top_pocket: top
      ? {
          market_slug: top.market_slug,
          market_name: top.market_name,
          composite_score: top.composite_score,
          verdict: top.verdict,
        }
      : null,
    related_intel: ['get_market_dcpi_rank', 'rank_markets', 'get_interconnection_queue'],
    available_categories: CATEGORIES,
    recommendation_live: true,
    connect_url: 'https://dchub.cloud/mcp',
    context: args.context ?? null,
    ...labels(),
  };
}

/** ISO token → the queue ISO (`ISO-NE`) and the metros' spelling (`ISONE`). */
function isoKeys(token: string): { queue: string; metro: string } | undefined {
  const q = normalizeIso(token);
  return q ? { queue: q, metro: q.replace('-', '') } : undefined;
}

const PEAK_MW: Record<string, number> = {
  PJM: 150_000,
  ERCOT: 85_000,
  MISO: 122_000,
  CAISO: 46_000,
  SPP: 56_000,
  NYISO: 31_000,
  ISONE: 24_000,
};

export function isoProfile(env: ToolEnv, token: string) {
  const k = isoKeys(token)!;
  const seed = env.ctx.seed;
  const markets = dcpiToday(env).filter((d) => d.iso === k.metro);
  const avg = (f: (d: DcpiScore) => number) =>
    markets.length ? round(markets.reduce((s, d) => s + f(d), 0) / markets.length, 1) : null;
  const active = env.ctx.data.queue.filter(
    (p) => p.iso === k.queue && !/withdraw|cancel|suspend|operation/i.test(p.queue_status),
  );
  const states = US_STATES.filter((s) => s.isos.includes(k.queue));
  const renew = round(15 + unit(seed, 'renew', k.metro) * 30, 1);
  const gas = round(30 + unit(seed, 'gas', k.metro) * 20, 1);
  const nuclear = round(5 + unit(seed, 'nuc', k.metro) * 15, 1);
  return {
    iso: k.metro,
    demand_mw: Math.round(PEAK_MW[k.metro] * (0.55 + unit(seed, 'demand', k.metro, dayNumber(env.nowMs)) * 0.3)),
    generation_mix_pct: {
      gas,
      renewables: renew,
      nuclear,
      coal: round(Math.max(0, 100 - gas - renew - nuclear - 4), 1),
      other: 4,
    },
    renewable_share_pct: renew,
    gas_share_pct: gas,
    constraint_score: avg((d) => d.constraint_score),
    excess_power_score: avg((d) => d.excess_power_score),
    avg_time_to_power_months: avg((d) => d.time_to_power_months),
    avg_queue_wait_months: ISO_TTP_MONTHS[k.queue],
    queue_depth_gw: round(active.reduce((s, p) => s + (p.capacity_mw ?? 0), 0) / 1000, 1),
    queue_projects_active: active.length,
    retail_price_cents_kwh: states.length
      ? round(states.reduce((s, x) => s + x.commercialCents, 0) / states.length, 2)
      : null,
    markets_scored: markets.length,
  };
}

export function compareIsos(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const supported = ['PJM', 'ERCOT', 'CAISO', 'MISO', 'SPP', 'NYISO', 'ISONE'];
  const tokens = (scalarText(args.isos) ?? '')
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = tokens.filter((t) => !isoKeys(t));
  const isos = [...new Set(tokens.filter((t) => isoKeys(t)).map((t) => isoKeys(t)!.metro))];
  if (bad.length || isos.length < 2 || isos.length > 4) {
    throw new ToolError({
      error: bad.length ? `unknown ISO ${bad.join(', ')}` : 'isos must name 2-4 ISO regions',
      supported_isos: supported,
      example: 'PJM,ERCOT,CAISO',
    });
  }
  return {
    success: true,
    isos,
    comparison: Object.fromEntries(isos.map((i) => [i, isoProfile(env, i)])),
    as_of: new Date(Math.floor(env.nowMs / 300_000) * 300_000).toISOString(),
    ...labels(),
  };
}

export function interconnectionQueue(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const queue = env.ctx.data.queue;
  if (args.iso) {
    const filters = QueueFilters.parse({ iso: scalarText(args.iso), limit: 50 });
    const r = selectQueueSurvivors(queue, filters, env.ctx.seed, env.nowMs);
    return { success: true, iso: filters.iso![0], ...r, projects: r.results };
  }
  const projects = Object.fromEntries(
    Object.keys(ISO_TTP_MONTHS).map((iso) => {
      const rows = queue.filter((p) => p.iso === iso);
      const active = rows.filter((p) => !/withdraw|cancel|suspend|operation/i.test(p.queue_status));
      const mw = active.reduce((s, p) => s + (p.capacity_mw ?? 0), 0);
      const firm = active
        .filter((p) => !INTERMITTENT_LABEL.test(p.fuel_type))
        .reduce((s, p) => s + (p.capacity_mw ?? 0), 0);
      return [
        iso,
        {
          total_projects: rows.length,
          active_projects: active.length,
          active_gw: round(mw / 1000, 1),
          firm_gw: round(firm / 1000, 1),
          avg_ttp_months: ISO_TTP_MONTHS[iso],
        },
      ];
    }),
  );
  return {
    success: true,
    total_projects: queue.length,
    projects,
    drill_down: 'Pass iso for the project list of one ISO.',
    ...labels(),
  };
}

export function energyPricesSummary(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const seed = env.ctx.seed;
  const code = stateArg(args.state);
  const isoText = scalarText(args.iso);
  const isoTok = args.iso ? isoKeys(isoText ?? '') : undefined;
  if (args.iso && !isoTok)
    throw new ToolError({
      error: `unknown iso ${isoText ?? ''}`,
      supported_isos: ['PJM', 'ERCOT', 'CAISO', 'MISO', 'SPP', 'NYISO', 'ISONE'],
    });
  const states = code
    ? US_STATES.filter((s) => s.code === code)
    : isoTok
      ? US_STATES.filter((s) => s.isos.includes(isoTok.queue))
      : US_STATES;
  const avg = (f: (s: (typeof US_STATES)[number]) => number) =>
    round(states.reduce((a, s) => a + f(s), 0) / Math.max(1, states.length), 2);
  const day = dayNumber(env.nowMs);
  const key = code ?? isoTok?.metro ?? 'US';
  return {
    success: true,
    iso: isoTok?.metro ?? null,
    state: code ?? null,
    retail_price_cents_kwh: avg((s) => s.commercialCents),
    industrial_price_cents_kwh: avg((s) => s.industrialCents),
    residential_price_cents_kwh: avg((s) => s.residentialCents),
    wholesale_price_usd_mwh: round(28 + unit(seed, 'lmp', key, day) * 35, 2),
    natural_gas_usd_mmbtu: round(2.2 + unit(seed, 'henry-hub', day) * 2.3, 2),
    grid_status: unit(seed, 'grid-status', key, day) < 0.9 ? 'normal' : 'conservation alert',
    as_of: new Date(Math.floor(env.nowMs / 300_000) * 300_000).toISOString(),
    ...labels(),
  };
}
