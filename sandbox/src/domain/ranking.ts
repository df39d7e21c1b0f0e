import { RANK_MAX_CONSTRAINTS, RANK_MAX_OBJECTIVES, type RankSitesRequestT, type RankedSitesT } from '@dchub/core';
import { dayNumber } from '../clock.js';
import type { Dataset } from '../dataset.js';
import { attribution, SYNTHETIC_NOTICE } from '../labels.js';
import { round } from '../rng.js';
import { snapshotDate } from './queue.js';
import { scoreSiteAt } from './sites.js';

const HOUR_MS = 3_600_000;
/** Baseline older than this is reported as stale in `caveats`. */
export const BASELINE_STALE_HOURS = 48;
/** Below this many candidates a percentile ranking gets a caveat. */
export const SMALL_BATCH = 8;
/** Sites sampled from the geocoded queue to build the viable-site population. */
const BASELINE_SAMPLE = 400;

export interface Baseline {
  /** Sorted values per metric. */
  metrics: Map<string, number[]>;
  sampleSize: number;
}

/**
 * The "viable-site population": site-score metrics and queue metrics of an evenly spaced sample
 * of geocoded, still-active interconnection-queue projects. Pure function of the seed's data.
 */
export function viableSiteBaseline(data: Dataset): Baseline {
  return data.lazy('ranking:viable-site-baseline', () => {
    const geo = data.queue.filter(
      (p) => p.lat !== null && p.lng !== null && !/withdraw|cancel|suspend|operation/i.test(p.queue_status),
    );
    const step = Math.max(1, Math.floor(geo.length / BASELINE_SAMPLE));
    const cols = new Map<string, number[]>();
    const push = (k: string, v: number | null | undefined) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) return;
      let col = cols.get(k);
      if (!col) cols.set(k, (col = []));
      col.push(v);
    };
    let n = 0;
    for (let i = 0; i < geo.length && n < BASELINE_SAMPLE; i += step, n++) {
      const p = geo[i];
      const s = scoreSiteAt(data, { lat: p.lat!, lon: p.lng! });
      push('overall_score', s.overall_score);
      for (const [k, v] of Object.entries(s.scores ?? {})) push(k, v);
      push('connectivity_score', s.fiber?.connectivity_score);
      for (const k of [
        'facilities_100km',
        'substations_50km',
        'gas_pipelines_50km',
        'power_plants_80km',
        'generation_capacity_mw',
      ] as const) {
        push(k, s.nearby?.[k]);
      }
      push('capacity_mw', p.capacity_mw);
      push('fiber_km', p.fiber_km);
      push('estimated_ttp_months', p.estimated_ttp_months);
    }
    for (const col of cols.values()) col.sort((a, b) => a - b);
    return { metrics: cols, sampleSize: n };
  });
}

/** Share of the population at or below `v` (ties count half), 0–100. */
function percentileOf(sorted: number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  const below = lo;
  let eq = 0;
  for (let i = lo; i < sorted.length && sorted[i] === v; i++) eq++;
  return (100 * (below + eq / 2)) / sorted.length;
}

/** The baseline is rebuilt with the weekly queue snapshot (Monday 06:00 UTC). */
export function baselineComputedAt(nowMs: number): number {
  let at = Date.parse(`${snapshotDate(nowMs)}T06:00:00Z`);
  if (at > nowMs) at -= 7 * 24 * HOUR_MS;
  return at;
}

const numeric = (v: unknown): number | undefined => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
};

/** A candidate's own field (never one inherited from Object.prototype, such as `constructor`). */
const ownField = (c: Record<string, unknown>, field: string): unknown =>
  Object.hasOwn(c, field) ? c[field] : undefined;

/** Objectives and constraints a request may name, and the work bound: candidates × (objectives + constraints). */
export { RANK_MAX_CONSTRAINTS, RANK_MAX_OBJECTIVES };
export const RANK_MAX_WORK = 100_000;

/**
 * The cost bound of a ranking request, checked on the raw JSON before anything else: the work
 * grows as candidates × (objectives + constraints), so a request over the bound is refused at once.
 */
export function rankingCostBound(json: unknown): { param: string; message: string } | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const b = json as Record<string, unknown>;
  const count = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).length : 0);
  const objectives = count(b.objectives);
  const constraints = count(b.constraints);
  if (objectives > RANK_MAX_OBJECTIVES)
    return {
      param: 'objectives',
      message: `has ${objectives} fields; at most ${RANK_MAX_OBJECTIVES} are accepted (the limit)`,
    };
  if (constraints > RANK_MAX_CONSTRAINTS)
    return {
      param: 'constraints',
      message: `has ${constraints} fields; at most ${RANK_MAX_CONSTRAINTS} are accepted (the limit)`,
    };
  const candidates = Array.isArray(b.candidates) ? b.candidates.length : 0;
  const work = candidates * (objectives + constraints);
  if (work > RANK_MAX_WORK) {
    return {
      param: 'candidates',
      message: `${candidates} candidates × ${objectives + constraints} objectives and constraints = ${work}; at most ${RANK_MAX_WORK} are ranked in one request (the limit)`,
    };
  }
  return undefined;
}

export const RANK_NOTE =
  'Deterministic ranking. relative: min-max per objective within the surviving batch (100 = best in set); ' +
  'absolute: the value clamped to a fixed 0-100 scale (100 - v when minimizing); percentile: percentile against the ' +
  'viable-site population baseline. objective_score = sum(|w| * normalized) / sum(|w|) over the objectives a candidate carries. ' +
  'Constraints fail closed: a candidate missing a constrained field is dropped. ' +
  SYNTHETIC_NOTICE;

type Mode = RankedSitesT['scoring_mode'];
type Candidate = RankSitesRequestT['candidates'][number];
type Basis = RankedSitesT['normalization_basis'][string];
type Status = RankedSitesT['objective_status'][number];

/** Constraints: hard filters, fail-closed on a missing or non-numeric field; which fields any candidate carries. */
function applyConstraints(req: RankSitesRequestT) {
  const entries = Object.entries(req.constraints);
  const coverage: Record<string, string> = {};
  for (const [field] of entries) {
    coverage[field] = req.candidates.some((c) => numeric(ownField(c, field)) !== undefined)
      ? 'validated'
      : 'unavailable';
  }
  const survivors = req.candidates.filter((c) =>
    entries.every(([field, { min, max }]) => {
      const v = numeric(ownField(c, field));
      return v !== undefined && (min === undefined || v >= min) && (max === undefined || v <= max);
    }),
  );
  return { survivors, coverage };
}

/** How one objective is scored: its 0-100 scorer, the basis reported, its status, and how it was normalized. */
interface ObjectiveScale {
  scorer: (v: number) => number;
  basis: Basis;
  status: Status;
  how: 'percentile' | 'absolute' | 'relative' | 'fell_back';
}

/** One objective's scale over the survivors' values: percentile, absolute, or min-max within the batch. */
function objectiveScale(
  field: string,
  w: number,
  values: number[],
  mode: Mode,
  population: number[] | undefined,
): ObjectiveScale {
  const direction = w > 0 ? 'maximize' : 'minimize';
  if (mode === 'percentile' && population && population.length) {
    return {
      scorer: (v) => (w > 0 ? percentileOf(population, v) : 100 - percentileOf(population, v)),
      basis: {
        scale: 'percentile vs population',
        p50: round(population[Math.floor(population.length / 2)], 3),
        sample_size_metric: population.length,
        direction,
      },
      status: { objective: field, status: 'validated', basis: 'percentile_vs_population' },
      how: 'percentile',
    };
  }
  if (mode === 'absolute') {
    const clamp = (v: number) => Math.min(100, Math.max(0, v));
    return {
      scorer: (v) => (w > 0 ? clamp(v) : 100 - clamp(v)),
      basis: { scale: '0-100 fixed', direction },
      status: { objective: field, status: 'validated', basis: 'absolute_0_100' },
      how: 'absolute',
    };
  }
  const min = Math.min(...values);
  const max = Math.max(...values);
  // Values near ±1.8e308 would overflow the span: measured in halves then (the same ratio, exact in binary).
  const half = Number.isFinite(max - min) ? 1 : 0.5;
  const span = max * half - min * half;
  const basis = mode === 'percentile' ? 'relative_fallback_not_in_baseline' : 'relative_in_set';
  return {
    scorer: (v) =>
      span === 0 ? 100 : w > 0 ? ((v * half - min * half) / span) * 100 : ((max * half - v * half) / span) * 100,
    basis: { min: round(min, 3), max: round(max, 3), direction },
    status: { objective: field, status: 'validated', basis },
    how: mode === 'percentile' ? 'fell_back' : 'relative',
  };
}

/** Every objective's scale, with what is reported of them: basis, status, which were baselined or fell back. */
function objectiveScales(survivors: Candidate[], req: RankSitesRequestT, mode: Mode, baseline: Baseline | undefined) {
  const normalization_basis: RankedSitesT['normalization_basis'] = {};
  const objective_status: RankedSitesT['objective_status'] = [];
  const fellBack: string[] = [];
  const baselined: string[] = [];
  const scorers = new Map<string, (v: number) => number>();
  for (const [field, w] of Object.entries(req.objectives)) {
    const values = survivors.map((c) => numeric(ownField(c, field))).filter((v): v is number => v !== undefined);
    if (!values.length) {
      const reason = 'no surviving candidate carries a numeric value for this field';
      objective_status.push({ objective: field, status: 'unavailable', reason });
      normalization_basis[field] = { direction: w > 0 ? 'maximize' : 'minimize', min: null, max: null };
      continue;
    }
    const scale = objectiveScale(field, w, values, mode, baseline?.metrics.get(field));
    if (scale.how === 'percentile') baselined.push(field);
    if (scale.how === 'fell_back') fellBack.push(field);
    scorers.set(field, scale.scorer);
    normalization_basis[field] = scale.basis;
    objective_status.push(scale.status);
  }
  return { scorers, normalization_basis, objective_status, fellBack, baselined };
}

/** Weights this far from 1 are scaled by the largest first, so that no sum overflows to Infinity or underflows to 0. */
const WEIGHT_RANGE = 1e300;

/**
 * Σ(|w| × n) / Σ|w| over (|w|, n) pairs, null when there are none. Weights past WEIGHT_RANGE (any finite double is a
 * weight) are divided by the largest first: the same mean, and every sum stays finite.
 */
function weightedMean(parts: ReadonlyArray<[number, number]>): number | null {
  if (!parts.length) return null;
  const top = Math.max(...parts.map(([w]) => w));
  const scale = top > WEIGHT_RANGE || top < 1 / WEIGHT_RANGE ? top : 1;
  let num = 0;
  let den = 0;
  for (const [w, n] of parts) {
    num += (w / scale) * n;
    den += w / scale;
  }
  return num / den;
}

/** The survivors scored (|w|-weighted mean of their normalized objectives) and ranked, best first. */
function rankSurvivors(
  survivors: Candidate[],
  objectives: Array<[string, number]>,
  scorers: Map<string, (v: number) => number>,
) {
  const scored = survivors.map((c, index) => {
    const normalized: Record<string, number> = {};
    const missing: string[] = [];
    const parts: Array<[number, number]> = [];
    for (const [field, w] of objectives) {
      const v = numeric(ownField(c, field));
      const scorer = scorers.get(field);
      if (v === undefined || !scorer) {
        missing.push(field);
        continue;
      }
      const n = scorer(v);
      normalized[field] = round(n, 1);
      parts.push([Math.abs(w), n]);
    }
    const mean = weightedMean(parts);
    const objective_score = mean === null ? null : round(mean, 1);
    return {
      index,
      row: { ...c, objective_score, ...(missing.length ? { missing_objectives: missing } : {}), normalized },
    };
  });
  // Best first; candidates carrying no objective last; ties keep input order.
  scored.sort((a, b) => {
    const sa = a.row.objective_score;
    const sb = b.row.objective_score;
    if (sa === null || sb === null) return sa === sb ? a.index - b.index : sa === null ? 1 : -1;
    return sb - sa || a.index - b.index;
  });
  return scored.map((s, i) => ({ ...s.row, rank: i + 1 }));
}

/** What a percentile ranking adds: the baseline's age and size, and caveats (stale, small batch, fallbacks). */
function percentileReport(
  baseline: Baseline,
  nowMs: number,
  candidates: number,
  fellBack: string[],
  baselined: string[],
): Partial<RankedSitesT> {
  const computedAt = baselineComputedAt(nowMs);
  const ageHours = round((nowMs - computedAt) / HOUR_MS, 1);
  const caveats: string[] = [];
  if (ageHours > BASELINE_STALE_HOURS) {
    caveats.push(
      `baseline is stale: computed ${ageHours} h ago (more than ${BASELINE_STALE_HOURS} h); ` +
        'percentiles may lag the population',
    );
  }
  if (candidates < SMALL_BATCH) {
    caveats.push(
      `only ${candidates} candidates (fewer than ${SMALL_BATCH}): percentile ranks are coarse at this batch size`,
    );
  }
  if (fellBack.length)
    caveats.push(`no population baseline for ${fellBack.join(', ')}: scored relative to this batch instead`);
  const sizes = [...baseline.metrics.values()].map((c) => c.length);
  return {
    baseline: {
      age_hours: ageHours,
      computed_at: new Date(computedAt).toISOString(),
      metrics: baseline.metrics.size,
      min_sample_size: sizes.length ? Math.min(...sizes) : 0,
      population: 'viable-site population: geocoded active interconnection-queue sites (sandbox, synthetic)',
      available_metrics: [...baseline.metrics.keys()].sort(),
      baseline_day: dayNumber(computedAt),
    },
    percentile_baseline_available: baselined,
    ...(fellBack.length ? { unbaselined_fields_fell_back_to_relative: fellBack } : {}),
    caveats,
  };
}

/** POST /api/v1/rank-sites: constraints, then objectives scaled by mode, then the ranking (spec §4.4). */
export function rankCandidates(data: Dataset, nowMs: number, req: RankSitesRequestT): RankedSitesT {
  const mode: Mode = req.percentile ? 'percentile' : req.absolute ? 'absolute' : 'relative';
  const { survivors, coverage } = applyConstraints(req);
  const baseline = mode === 'percentile' ? viableSiteBaseline(data) : undefined;
  const scales = objectiveScales(survivors, req, mode, baseline);
  const ranked = rankSurvivors(survivors, Object.entries(req.objectives), scales.scorers);
  const results = ranked.slice(0, req.top_k);
  const out: RankedSitesT = {
    _entity: 'ranked_sites',
    ok: true,
    scoring_mode: mode,
    objective_status: scales.objective_status,
    constraint_coverage: coverage,
    constraint_coverage_shape: '{field: "validated"|"unavailable"}',
    count_ranked: ranked.length,
    count_returned: results.length,
    dropped_by_constraints: req.candidates.length - survivors.length,
    results,
    normalization_basis: scales.normalization_basis,
    ...attribution(),
    note: RANK_NOTE,
  };
  if (!baseline) return out;
  return { ...out, ...percentileReport(baseline, nowMs, req.candidates.length, scales.fellBack, scales.baselined) };
}
