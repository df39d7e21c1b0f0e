import { DAY_MS, dayIso } from '../clock.js';
import { Rng, round, unit } from '../rng.js';
import type { Facility } from './infrastructure.js';
import { METROS, type Metro } from './metros.js';

/**
 * DCPI per market, recomputed daily at 06:00 UTC. A market's inputs change on a few days only
 * (about 3% of markets a day), so `/diff` sees a handful of changed markets per day. Scores come
 * from the published DCPI formulas (CC-BY-4.0 methodology) applied to synthetic inputs.
 */

export const RECOMPUTE_HOUR_UTC = 6;
/** First computed day of the synthetic history. */
const HISTORY_START_DAY = Date.UTC(2026, 0, 1) / DAY_MS;
const DAILY_CHANGE_RATE = 0.03;

export type Verdict = 'BUILD' | 'CAUTION' | 'AVOID';

export interface DcpiScore {
  market_slug: string;
  market_name: string;
  state: string;
  iso: string;
  latitude: number;
  longitude: number;
  excess_power_score: number;
  constraint_score: number;
  time_to_power_months: number;
  queue_wait_months: number;
  reserve_margin_pct: number;
  gen_additions_12mo_mw: number;
  curtailment_pct: number;
  stranded_capacity_mw: number;
  emergency_count_30d: number;
  composite_score: number;
  verdict: Verdict;
  computed_at: string;
}

export interface MarketStats {
  slug: string;
  operational_mw: number;
  pipeline_mw: number;
  facility_count: number;
  vacancy_pct: number;
  lease_rate: number;
  top_operator: { name: string; facility_count: number } | null;
  outlook_word_count: number;
}

const clip = (v: number) => Math.max(0, Math.min(100, v));

/** Scorer's verdict rule (reference notes §2.6.1). */
export function verdictOf(excess: number, constraint: number): Verdict {
  if (excess >= 65 && constraint <= 50) return 'BUILD';
  if (excess >= 50 && constraint <= 70) return 'CAUTION';
  return 'AVOID';
}

const MULTIPLIER: Record<Verdict, number> = { BUILD: 1, CAUTION: 0.85, AVOID: 0.6 };

/** composite = (excess·0.6 + (100 − constraint)·0.3 + (1 − min(ttp,60)/60)·100·0.1) × multiplier. */
export function compositeOf(excess: number, constraint: number, ttp: number, verdict: Verdict): number {
  const raw = excess * 0.6 + (100 - constraint) * 0.3 + (1 - Math.min(ttp, 60) / 60) * 100 * 0.1;
  return round(clip(raw * MULTIPLIER[verdict]), 1);
}

/** Base interconnection wait by operator, months. */
const BASE_WAIT: Record<string, number> = {
  PJM: 50,
  ERCOT: 30,
  MISO: 34,
  CAISO: 40,
  SPP: 24,
  NYISO: 31,
  ISONE: 34,
  WECC: 28,
  SERC: 26,
  TVA: 22,
};

/** The latest day, not after `day`, on which the market's inputs changed. */
export function lastChangeDay(seed: string, slug: string, day: number): number {
  for (let d = day; d > HISTORY_START_DAY; d--) {
    if (unit(seed, 'dcpi-change', slug, d) < DAILY_CHANGE_RATE) return d;
  }
  return HISTORY_START_DAY;
}

export function scoreMarket(seed: string, m: Metro, changeDay: number): DcpiScore {
  const rng = new Rng(`${seed}|dcpi|${m.slug}|${changeDay}`);
  const wait = round(Math.max(8, (BASE_WAIT[m.iso] ?? 26) + rng.range(-14, 16)), 1);
  const reserve = round(rng.range(8, 32), 1);
  const emergencies = rng.weighted([
    [0, 60],
    [1, 25],
    [2, 10],
    [3, 5],
  ] as const);
  const demandYoy = rng.range(0, 12);
  const additions = round(rng.logRange(100, 9000), 0);
  const curtail = round(rng.range(0, 12), 1);
  const approval = rng.range(20, 100);
  const stranded = round(rng.logRange(10, 1500), 0);
  const btm = rng.logRange(5, 600);
  const constraint = round(
    0.4 * clip((wait / 36) * 100) +
      0.25 * clip((1 - reserve / 25) * 100) +
      0.2 * clip(emergencies * 20) +
      0.15 * clip((demandYoy / 12) * 100),
    1,
  );
  const excess = round(
    0.2 * clip(((reserve - 12) / 13) * 100) +
      0.2 * clip((additions / 5000) * 100) +
      0.2 * clip((curtail / 10) * 100) +
      0.15 * clip(approval) +
      0.15 * clip((stranded / 1000) * 100) +
      0.1 * clip((btm / 500) * 100),
    1,
  );
  const ttp = round(wait * 0.8 + rng.range(0, 10), 1);
  const verdict = verdictOf(excess, constraint);
  return {
    market_slug: m.slug,
    market_name: m.name,
    state: m.state,
    iso: m.iso,
    latitude: m.lat,
    longitude: m.lon,
    excess_power_score: excess,
    constraint_score: constraint,
    time_to_power_months: ttp,
    queue_wait_months: wait,
    reserve_margin_pct: reserve,
    gen_additions_12mo_mw: additions,
    curtailment_pct: curtail,
    stranded_capacity_mw: stranded,
    emergency_count_30d: emergencies,
    composite_score: compositeOf(excess, constraint, ttp, verdict),
    verdict,
    computed_at: new Date(changeDay * DAY_MS + RECOMPUTE_HOUR_UTC * 3_600_000).toISOString().replace('.000Z', '+00:00'),
  };
}

/** The day whose 06:00 UTC recompute is in force at `nowMs`. */
export const scoringDay = (nowMs: number): number => Math.floor((nowMs - RECOMPUTE_HOUR_UTC * 3_600_000) / DAY_MS);

export function marketStats(seed: string, facilities: readonly Facility[]): Map<string, MarketStats> {
  const bySlug = new Map<string, Facility[]>();
  for (const f of facilities) if (f.market) bySlug.set(f.market, [...(bySlug.get(f.market) ?? []), f]);
  const out = new Map<string, MarketStats>();
  for (const m of METROS) {
    const fs = bySlug.get(m.slug) ?? [];
    const ops = new Map<string, number>();
    for (const f of fs) ops.set(f.operator, (ops.get(f.operator) ?? 0) + 1);
    const top = [...ops.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    const rng = new Rng(`${seed}|stats|${m.slug}`);
    out.set(m.slug, {
      slug: m.slug,
      operational_mw: round(
        fs.filter((f) => f.status === 'operational').reduce((s, f) => s + f.power_mw, 0),
        1,
      ),
      pipeline_mw: round(
        fs.filter((f) => f.status !== 'operational').reduce((s, f) => s + f.power_mw, 0),
        1,
      ),
      facility_count: fs.length,
      vacancy_pct: round(rng.range(1, 14), 1),
      lease_rate: round(rng.range(95, 260), 0),
      top_operator: top ? { name: top[0], facility_count: top[1] } : null,
      outlook_word_count: rng.int(80, 140),
    });
  }
  return out;
}

export { dayIso };
