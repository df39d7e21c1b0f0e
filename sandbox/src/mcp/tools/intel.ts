/** get_market_intel: one market's statistics, narrowed by `metric` and `period`, the market list, or a comparison. */
import { scalarText } from '@dchub/core';
import { resolveMarket, type ResolvedMarket } from '../../data/market-extras.js';
import { dcpiMarketAnswer } from '../../domain/dcpi.js';
import {
  marketCompareAnswer,
  marketDetailAnswer,
  marketListAnswer,
  marketRows,
  resolveMarketsToCompare,
} from '../../domain/markets.js';
import { ToolError, type ToolEnv, type ToolResult } from './common.js';

export const MARKET_METRICS = [
  'overview',
  'facilities',
  'capacity',
  'providers',
  'status',
  'recent',
  'pricing',
  'dcpi',
] as const;
/** Periods over which `recent_facilities` are counted (discovered within), on the sandbox clock. */
export const MARKET_PERIODS: Record<string, number | null> = { '7d': 7, '30d': 30, '90d': 90, '1y': 365, all: null };
const DAY_MS = 86_400_000;

function metricArg(v: unknown): (typeof MARKET_METRICS)[number] | undefined {
  if (v === undefined) return undefined;
  const m = MARKET_METRICS.find((x) => x === (scalarText(v) ?? '').trim().toLowerCase());
  if (!m)
    throw new ToolError({
      error: `metric: must be one of ${MARKET_METRICS.join(', ')}, got ${JSON.stringify(v)}`,
      param: 'metric',
      valid_metrics: MARKET_METRICS,
    });
  return m;
}

function periodArg(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const p = (scalarText(v) ?? '').trim().toLowerCase();
  if (!Object.hasOwn(MARKET_PERIODS, p))
    throw new ToolError({
      error: `period: must be one of ${Object.keys(MARKET_PERIODS).join(', ')}, got ${JSON.stringify(v)}`,
      param: 'period',
      valid_periods: Object.keys(MARKET_PERIODS),
    });
  return p;
}

type Metric = (typeof MARKET_METRICS)[number];

/** The comparison and the list have no per-metric or per-period view: say so rather than ignore it. */
function refuseOneMarketArgs(args: Record<string, unknown>, metric: Metric | undefined, period: string | undefined) {
  if (args.compare_to === undefined && args.market !== undefined) return;
  const what = args.compare_to !== undefined ? 'a comparison (compare_to)' : 'the market list (no market)';
  if (metric && metric !== 'overview')
    throw new ToolError({ error: `metric: applies to one market, not to ${what}`, param: 'metric' });
  if (period) throw new ToolError({ error: `period: applies to one market, not to ${what}`, param: 'period' });
}

/** `market` compared with `compare_to`: both must be named and known. */
function compareMarkets(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const names = [scalarText(args.market) ?? '', scalarText(args.compare_to) ?? ''].map((n) => n.trim()).filter(Boolean);
  if (names.length < 2)
    throw new ToolError({
      error: `markets: provide 2-4 markets to compare, got ${names.length}`,
      code: 'VALIDATION_ERROR',
      param: 'market',
    });
  const compared = resolveMarketsToCompare(env.ctx.data, names);
  if ('unknown' in compared) throw new ToolError({ ...compared.unknown });
  return marketCompareAnswer(env.ctx, compared.metros);
}

/** The start of `period` on the sandbox clock (whole seconds, no milliseconds), or undefined for `all`. */
function periodStart(period: string | undefined, nowMs: number): string | undefined {
  const days = period ? MARKET_PERIODS[period] : null;
  if (days === null) return undefined;
  return new Date(Math.floor((nowMs - days * DAY_MS) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

type Detail = ReturnType<typeof marketDetailAnswer>;

/** The members of one market's answer that a metric narrows it to (the overview has its own shape). */
function metricView(metric: Exclude<Metric, 'overview'>, detail: Detail, res: ResolvedMarket, env: ToolEnv) {
  switch (metric) {
    case 'facilities':
      return {
        facility_count: detail.stats.facility_count,
        by_status: detail.by_status,
        recent_facilities: detail.recent_facilities,
      };
    case 'capacity':
      return {
        total_power_mw: detail.stats.total_power_mw,
        avg_power_mw: detail.stats.avg_power_mw,
        top_providers: detail.top_providers,
      };
    case 'providers':
      return { provider_count: detail.stats.provider_count, top_providers: detail.top_providers };
    case 'status':
      return { by_status: detail.by_status };
    case 'recent':
      return { recent_facilities: detail.recent_facilities };
    case 'pricing': {
      const row = marketRows(env.ctx.data).find((r) => r.slug === res.metro.slug)!;
      return {
        market_pricing: { avg_kwh_price_usd: row.avg_kwh_price_usd, pipeline_mw_total: row.pipeline_mw_total },
      };
    }
    case 'dcpi': {
      const d = dcpiMarketAnswer(env.ctx, res, true);
      return {
        dcpi: {
          verdict: d.verdict,
          composite_score: d.composite_score,
          excess_power_score: d.excess_power_score,
          constraint_score: d.constraint_score,
          time_to_power_months: d.time_to_power_months,
        },
      };
    }
  }
}

/** One market's statistics, narrowed to `metric`, with recent facilities counted over `period`. */
function oneMarket(args: Record<string, unknown>, env: ToolEnv, metric: Metric | undefined, period?: string) {
  const res = resolveMarket(scalarText(args.market) ?? '');
  if (!res) throw new ToolError({ error: 'Market not found', code: 'NOT_FOUND', market: args.market });
  const since = periodStart(period, env.nowMs);
  const detail = marketDetailAnswer(env.ctx, res.metro, since);
  const window = { period: period ?? 'all', ...(since ? { discovered_since: since } : {}) };
  if (!metric || metric === 'overview') return { ...detail, metric: 'overview', ...window };
  return {
    success: true,
    market: detail.market,
    metric,
    ...window,
    ...metricView(metric, detail, res, env),
    _source: detail._source,
    note: detail.note,
  };
}

export function marketIntel(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const metric = metricArg(args.metric);
  const period = periodArg(args.period);
  refuseOneMarketArgs(args, metric, period);
  if (args.compare_to !== undefined) return compareMarkets(args, env);
  if (args.market === undefined) return marketListAnswer(env.ctx.data, 'enterprise');
  return oneMarket(args, env, metric, period);
}
