import { MARKET_LIST_ROWS as PLAN_MARKET_LIST_ROWS } from '@dchub/core';
import { METROS, type Metro } from '../data/metros.js';
import type { Facility } from '../data/infrastructure.js';
import { discoveredAt, facilitiesByMarket, kwhCents, resolveMarket } from '../data/market-extras.js';
import type { Dataset } from '../dataset.js';
import type { SandboxContext } from '../context.js';
import { SOURCE, SYNTHETIC_NOTICE } from '../labels.js';
import { PRICING_URL, SIGNUP_URL } from '../policy/gating.js';
import { atLeast, type Tier } from '../policy/tiers.js';
import { round } from '../rng.js';
import { SEED_MARKETS } from './briefs.js';

export const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
/** `generated_at` as the legacy endpoints write it (no zone designator). */
export const legacyTime = (ms: number) => new Date(ms).toISOString().replace('Z', '');

/** Rows of /api/v1/markets/list per tier (notes §2.2), from core's plans table. */
export const MARKET_LIST_ROWS: Readonly<Record<Tier, number>> = PLAN_MARKET_LIST_ROWS;

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

export function marketRows(data: Dataset): MarketRow[] {
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

export function marketSummary(ctx: SandboxContext, m: Metro) {
  const fs = facilitiesByMarket(ctx.data).get(m.slug) ?? [];
  const byOp = new Map<string, Facility[]>();
  for (const f of fs) byOp.set(f.operator, [...(byOp.get(f.operator) ?? []), f]);
  const providers = [...byOp.entries()]
    .map(([name, list]) => ({ name, facilities: list.length, power_mw: round(sum(list.map((f) => f.power_mw)), 1) }))
    .sort((a, b) => b.facilities - a.facilities || b.power_mw - a.power_mw || a.name.localeCompare(b.name));
  const total = round(sum(fs.map((f) => f.power_mw)), 1);
  return { fs, providers, total, avg: fs.length ? round(total / fs.length, 1) : 0 };
}

/** The answer of /api/v1/markets/list (and /api/v1/markets): rows capped per tier, prices from Starter. */
export function marketListAnswer(dataset: Dataset, tier: Tier) {
  const all = marketRows(dataset);
  const cap = MARKET_LIST_ROWS[tier];
  const shown = all.slice(0, Math.min(all.length, cap));
  const priced = atLeast(tier, 'starter');
  const data = shown.map((row) => {
    const { pipeline_mw_total, avg_kwh_price_usd, ...rest } = row;
    return priced ? { ...rest, pipeline_mw_total, avg_kwh_price_usd } : rest;
  });
  const full = shown.length === all.length;
  return {
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
  };
}

/** One market: stats, top providers, status breakdown, recent facilities. */
export function marketDetailAnswer(ctx: SandboxContext, m: Metro, discoveredSince?: string) {
  const s = marketSummary(ctx, m);
  const byStatus: Record<string, number> = {};
  for (const f of s.fs) byStatus[f.status] = (byStatus[f.status] ?? 0) + 1;
  const recent = s.fs
    .map((f) => ({ f, at: discoveredAt(ctx.seed, f.id) }))
    .filter((x) => !discoveredSince || x.at >= discoveredSince)
    .sort((a, b) => b.at.localeCompare(a.at) || a.f.id - b.f.id)
    .slice(0, 5)
    .map(({ f, at }) => ({
      id: f.id,
      name: f.name,
      provider: f.operator,
      city: f.city,
      power_mw: f.power_mw,
      status: f.status,
      discovered_at: at,
    }));
  return {
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
    stats: {
      facility_count: s.fs.length,
      total_power_mw: s.total,
      avg_power_mw: s.avg,
      provider_count: s.providers.length,
    },
    top_providers: s.providers.slice(0, 10),
    by_status: byStatus,
    recent_facilities: recent,
    _source: SOURCE,
    note: SYNTHETIC_NOTICE,
  };
}

/** Why a comparison was refused: the names not known, and the first 20 markets one could name instead. */
export interface UnknownMarkets {
  error: string;
  code: 'NOT_FOUND';
  available_markets: string[];
}

/** The markets of a comparison by name, or its refusal (REST answers it as a 404, MCP as a tool error). */
export function resolveMarketsToCompare(
  data: Dataset,
  names: readonly string[],
): { metros: Metro[] } | { unknown: UnknownMarkets } {
  const resolved = names.map((n) => ({ n, r: resolveMarket(n) }));
  const unknown = resolved.filter((x) => !x.r).map((x) => x.n);
  if (!unknown.length) return { metros: resolved.map((x) => x.r!.metro) };
  return {
    unknown: {
      error: `Unknown markets: [${unknown.map((u) => `'${u}'`).join(', ')}]`,
      code: 'NOT_FOUND',
      available_markets: marketRows(data)
        .slice(0, 20)
        .map((row) => row.slug),
    },
  };
}

/** Side-by-side comparison of resolved markets. */
export function marketCompareAnswer(ctx: SandboxContext, metros: readonly Metro[]) {
  const comparison = metros.map((m) => {
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
  return {
    success: true,
    comparison,
    generated_at: legacyTime(ctx.clock.nowMs()),
    _source: SOURCE,
    note: SYNTHETIC_NOTICE,
  };
}
