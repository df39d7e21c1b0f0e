import { DCPI_CITATION } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { dcpiExtras, dcpiReasoning, recomputeIso, type ResolvedMarket } from '../data/market-extras.js';
import {
  lastChangeDay,
  RECOMPUTE_HOUR_UTC,
  scoreMarket,
  scoringDay,
  verdictOf,
  type DcpiScore,
} from '../data/markets.js';
import type { Metro } from '../data/metros.js';
import { SOURCE, SYNTHETIC_NOTICE } from '../labels.js';
import { gatedMarkers } from '../policy/gating.js';
import { atLeast, type Tier } from '../policy/tiers.js';
import { round } from '../rng.js';
import { sum } from './markets.js';

export function scoreRow(seed: string, s: DcpiScore) {
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
  for (const [label, days] of [
    ['3mo', 91],
    ['6mo', 182],
    ['12mo', 365],
    ['24mo', 730],
  ] as const) {
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
    disclaimer:
      'Straight-line projection of the last 30 daily DCPI samples; not a forecast of grid events. Sandbox: synthetic data.',
  };
}

export const byComposite = (a: DcpiScore, b: DcpiScore) =>
  b.composite_score - a.composite_score || a.market_slug.localeCompare(b.market_slug);

const DCPI_ORDER: Record<
  'excess' | 'constraint' | 'time_to_power' | 'composite',
  (a: DcpiScore, b: DcpiScore) => number
> = {
  excess: (a, b) => b.excess_power_score - a.excess_power_score,
  constraint: (a, b) => b.constraint_score - a.constraint_score,
  time_to_power: (a, b) => a.time_to_power_months - b.time_to_power_months,
  composite: (a, b) => b.composite_score - a.composite_score,
};

export const DCPI_LOCKED_FIELDS = [
  'composite_score',
  'constraint_score',
  'excess_power_score',
  'time_to_power_months',
  'top_opportunities_json',
  'top_risks_json',
];

/** The DCPI list: filtered, sorted, capped to 10 rows for keyless callers, numbers masked below Developer. */
export function dcpiScoresAnswer(
  ctx: SandboxContext,
  tier: Tier,
  sortKey: 'excess' | 'constraint' | 'time_to_power' | 'composite',
  f: { verdict?: string; iso?: string; state?: string; limit?: number },
) {
  const eq = (a: string | undefined, b: string) => !a || a.toLowerCase() === b.toLowerCase();
  let scores = ctx.data
    .dcpi(scoringDay(ctx.clock.nowMs()))
    .filter((s) => (!f.verdict || s.verdict === f.verdict) && eq(f.iso, s.iso) && eq(f.state, s.state));
  scores = [...scores].sort((a, b) => DCPI_ORDER[sortKey](a, b) || a.market_slug.localeCompare(b.market_slug));
  const total = scores.length;
  const full = atLeast(tier, 'developer');
  let limit = f.limit ?? 0;
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
  return {
    scores: rows,
    count: rows.length,
    sort: sortKey,
    filters: { verdict: f.verdict ?? null, iso: f.iso ?? null, state: f.state ?? null },
    ...(full ? {} : { ...gatedMarkers(total, rows.length, 'DEVELOPER'), _locked_fields: DCPI_LOCKED_FIELDS }),
    _source: SOURCE,
    citation: DCPI_CITATION,
    note: SYNTHETIC_NOTICE,
  };
}

/** The DCPI record of one market with inputs, 30-day trend, narrative and forecast. */
export function dcpiMarketAnswer(ctx: SandboxContext, res: ResolvedMarket, narrativeOff: boolean) {
  const day = scoringDay(ctx.clock.nowMs());
  const scores = ctx.data.dcpi(day);
  const idx = scores.findIndex((s) => s.market_slug === res.metro.slug);
  const s = scores[idx];
  const x = dcpiExtras(ctx.seed, s);
  const hist = history30(ctx.seed, res.metro, day);
  const old = hist[0];
  return {
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
}

/** Markets ranked by DCPI composite. */
export function dcpiLeaderboardRows(ctx: SandboxContext, day: number, verdict: string | undefined, limit: number) {
  return ctx.data
    .dcpi(day)
    .filter((s) => !verdict || s.verdict === verdict)
    .sort(byComposite)
    .slice(0, limit)
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
}

export const leaderboardAsOf = (day: number) => recomputeIso(day, RECOMPUTE_HOUR_UTC);
