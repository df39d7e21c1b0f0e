import type { AiCapacityMarketT } from '@dchub/core';
import { DAY_MS } from '../clock.js';
import type { SandboxContext } from '../context.js';
import type { Facility } from '../data/infrastructure.js';
import { etaDays, facilitiesByMarket, mwBand, scoreBand } from '../data/market-extras.js';
import { RECOMPUTE_HOUR_UTC } from '../data/markets.js';
import { METROS } from '../data/metros.js';
import { attribution } from '../labels.js';
import { gatedMarkers, SIGNUP_URL } from '../policy/gating.js';
import { round } from '../rng.js';
import { sum } from './markets.js';

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
    const aiReady = round(
      sum(active.filter(big).map((f) => f.power_mw)) * vacancy + sum(arriving.filter(big).map((f) => f.power_mw)),
      1,
    );
    const hyperscale = [...active, ...arriving].some((f) => f.power_mw > 50);
    const score = round(
      Math.min(150, active.length * 2.5) +
        Math.min(100, operators.size * 8) +
        0.3 * Math.min(500, (installed + arrivingMw) * 0.15) +
        (hyperscale ? 50 : 0),
      1,
    );
    rows.push({
      rank: 0,
      market: `${m.slug}-${m.state.toLowerCase()}`,
      market_slug: m.slug,
      city: m.name,
      state: m.state || null,
      country: m.country,
      deployable_mw: {
        value: deployable,
        note: `Vacant share of installed capacity plus pipeline energising within ${horizon} days`,
      },
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

export function teaseAiRow(r: AiCapacityMarketT): AiCapacityMarketT {
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

export const AI_LOCKED_FIELDS = [
  'ai_ready_mw',
  'deployable_mw',
  'pipeline_mw',
  'pipeline_total_mw',
  'score',
  'total_installed_mw',
];

/** The AI capacity index of a scoring day; `gated` callers get banded values and §5.3 markers. */
export function aiCapacityAnswer(ctx: SandboxContext, day: number, horizon: number, limit: number, gated: boolean) {
  const all = aiCapacityMarkets(ctx, day, horizon);
  const shown = all.slice(0, limit);
  return {
    index_name: 'AI Compute Capacity Index',
    horizon_days: horizon,
    computed_at: new Date(day * DAY_MS + RECOMPUTE_HOUR_UTC * 3_600_000).toISOString().replace('.000Z', 'Z'),
    methodology: 'https://dchub.cloud/ai-capacity-index#methodology',
    result_count: shown.length,
    total_markets: all.length,
    markets: gated ? shown.map(teaseAiRow) : shown,
    data_sources: ['discovered_facilities', 'DCPI v2', 'pipeline (planned)'],
    next_refresh: 'daily 06:00 UTC (sandbox recompute)',
    ...(gated
      ? {
          ...gatedMarkers(all.length, shown.length, 'IDENTIFIED'),
          _locked_fields: AI_LOCKED_FIELDS,
          upgrade_url: SIGNUP_URL,
        }
      : {}),
    ...attribution(),
  };
}
