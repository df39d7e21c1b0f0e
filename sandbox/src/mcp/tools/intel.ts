/** get_market_intel: one market's statistics, narrowed by `metric` and `period`, the market list, or a comparison. */
import { scalarText } from '@dchub/core';
import { resolveMarket } from '../../data/market-extras.js';
import { dcpiMarketAnswer } from '../../domain/dcpi.js';
import { marketCompareAnswer, marketDetailAnswer, marketListAnswer, marketRows } from '../../domain/markets.js';
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

export function marketIntel(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const metric = metricArg(args.metric);
  const period = periodArg(args.period);
  if (args.compare_to !== undefined || args.market === undefined) {
    // The comparison and the list have no per-metric or per-period view: say so rather than ignore it.
    const what = args.compare_to !== undefined ? 'a comparison (compare_to)' : 'the market list (no market)';
    if (metric && metric !== 'overview')
      throw new ToolError({ error: `metric: applies to one market, not to ${what}`, param: 'metric' });
    if (period) throw new ToolError({ error: `period: applies to one market, not to ${what}`, param: 'period' });
  }
  if (args.compare_to !== undefined) {
    const names = [scalarText(args.market) ?? '', scalarText(args.compare_to) ?? '']
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length < 2)
      throw new ToolError({
        error: `markets: provide 2-4 markets to compare, got ${names.length}`,
        code: 'VALIDATION_ERROR',
        param: 'market',
      });
    const resolved = names.map((n) => ({ n, r: resolveMarket(n) }));
    const unknown = resolved.filter((x) => !x.r).map((x) => x.n);
    if (unknown.length) {
      throw new ToolError({
        error: `Unknown markets: [${unknown.map((u) => `'${u}'`).join(', ')}]`,
        code: 'NOT_FOUND',
        available_markets: marketRows(env.ctx.data)
          .slice(0, 20)
          .map((row) => row.slug),
      });
    }
    return marketCompareAnswer(
      env.ctx,
      resolved.map((x) => x.r!.metro),
    );
  }
  if (args.market === undefined) return marketListAnswer(env.ctx.data, 'enterprise');
  const res = resolveMarket(scalarText(args.market) ?? '');
  if (!res) throw new ToolError({ error: 'Market not found', code: 'NOT_FOUND', market: args.market });
  const days = period ? MARKET_PERIODS[period] : null;
  const since =
    days === null
      ? undefined
      : new Date(Math.floor((env.nowMs - days * DAY_MS) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const detail = marketDetailAnswer(env.ctx, res.metro, since);
  const head = {
    success: true,
    market: detail.market,
    metric: metric ?? 'overview',
    period: period ?? 'all',
    ...(since ? { discovered_since: since } : {}),
  };
  const tail = { _source: detail._source, note: detail.note };
  switch (metric) {
    case 'facilities':
      return {
        ...head,
        facility_count: detail.stats.facility_count,
        by_status: detail.by_status,
        recent_facilities: detail.recent_facilities,
        ...tail,
      };
    case 'capacity':
      return {
        ...head,
        total_power_mw: detail.stats.total_power_mw,
        avg_power_mw: detail.stats.avg_power_mw,
        top_providers: detail.top_providers,
        ...tail,
      };
    case 'providers':
      return { ...head, provider_count: detail.stats.provider_count, top_providers: detail.top_providers, ...tail };
    case 'status':
      return { ...head, by_status: detail.by_status, ...tail };
    case 'recent':
      return { ...head, recent_facilities: detail.recent_facilities, ...tail };
    case 'pricing': {
      const row = marketRows(env.ctx.data).find((r) => r.slug === res.metro.slug)!;
      return {
        ...head,
        market_pricing: { avg_kwh_price_usd: row.avg_kwh_price_usd, pipeline_mw_total: row.pipeline_mw_total },
        ...tail,
      };
    }
    case 'dcpi': {
      const d = dcpiMarketAnswer(env.ctx, res, true);
      return {
        ...head,
        dcpi: {
          verdict: d.verdict,
          composite_score: d.composite_score,
          excess_power_score: d.excess_power_score,
          constraint_score: d.constraint_score,
          time_to_power_months: d.time_to_power_months,
        },
        ...tail,
      };
    }
    default:
      return { ...detail, metric: 'overview', period: period ?? 'all', ...(since ? { discovered_since: since } : {}) };
  }
}
