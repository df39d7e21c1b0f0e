import { echoFilters, QUEUE_ISOS, type QueueFiltersT, type QueuePredicate, type QueueResultT } from '@dchub/core';
import { dayIso, dayNumber } from '../clock.js';
import { ISO_TTP_MONTHS, INTERMITTENT_LABEL, candidateId, type QueueProject } from '../data/queue.js';
import { attribution, SYNTHETIC_NOTICE } from '../labels.js';
import { gatedMarkers } from '../policy/gating.js';

/** Rows of the keyless preview. */
export const PREVIEW_ROWS = 3;
/** Predicates the keyless preview does not apply (it shows the first rows of the broader set). */
export const PREVIEW_IGNORED = [
  'limit',
  'max_fiber_km',
  'max_ttp_months',
  'min_mw',
] as const satisfies readonly QueuePredicate[];

export const QUEUE_NOTE =
  'Server-side set-reduction over the interconnection queues of seven US grid operators (~5,300 projects). ' +
  'estimated_ttp_months is the ISO-level average wait, not a project estimate; coordinates are county centroids ' +
  'or points of interconnection (coordinate_precision). max_fiber_km measures to the nearest mapped long-haul fiber ' +
  'endpoint from the project point. Candidate ids live candidate_ttl_days. ' +
  SYNTHETIC_NOTICE;

const TERMINAL = ['withdraw', 'cancel', 'terminat', 'suspend', 'commercial operation', 'deactivat'];

/** Every predicate except the time-to-power cut (spec §4.2); all combine as an intersection. */
function matchesBase(p: QueueProject, f: QueueFiltersT, isos: ReadonlySet<string> | null): boolean {
  if (isos && !isos.has(p.iso)) return false;
  if (f.min_mw !== undefined && (p.capacity_mw === null || p.capacity_mw < f.min_mw)) return false;
  if (f.baseload_only && INTERMITTENT_LABEL.test(p.fuel_type)) return false;
  if (f.fuel_type && !f.fuel_type.some((t) => p.fuelLower.includes(t.toLowerCase()))) return false;
  const status = f.status.toLowerCase();
  if (status === 'active') {
    if (TERMINAL.some((t) => p.statusLower.includes(t))) return false;
  } else if (status !== 'all' && !p.statusLower.includes(status)) return false;
  if (f.max_fiber_km !== undefined && (p.fiber_km === null || p.fiber_km > f.max_fiber_km)) return false;
  if (f.geocoded_only && (p.lat === null || p.lng === null)) return false;
  return true;
}

/** Weekly snapshot date (Monday) of the loaded queue; candidate ids are minted per snapshot. */
export function snapshotDate(nowMs: number): string {
  const day = dayNumber(nowMs);
  const weekday = (day + 3) % 7; // 1970-01-01 was a Thursday; 0 = Monday
  return dayIso(day - weekday);
}

/** The projects every predicate keeps (in queue order) and their MW, and the ISOs the time-to-power cut emptied. */
function survivorsOf(queue: readonly QueueProject[], f: QueueFiltersT, excludedIsos: ReadonlySet<string>) {
  const isos = f.iso ? new Set<string>(f.iso) : null;
  const survivors: QueueProject[] = [];
  const excludedWithRows = new Set<string>();
  let totalMw = 0;
  for (const p of queue) {
    if (!matchesBase(p, f, isos)) continue;
    if (excludedIsos.has(p.iso)) {
      excludedWithRows.add(p.iso);
      continue;
    }
    survivors.push(p);
    totalMw += p.capacity_mw ?? 0;
  }
  return { survivors, excludedWithRows, totalMw };
}

/** One result row: the project, its representative point and site-evaluation handoff, its candidate id. */
function queueRow(p: QueueProject, seed: string, snap: string) {
  const geo = p.lat !== null && p.lng !== null;
  return {
    project_name: p.project_name,
    iso: p.iso,
    state: p.state,
    county: p.county,
    fuel_type: p.fuel_type,
    capacity_mw: p.capacity_mw,
    queue_status: p.queue_status,
    queue_date: p.queue_date,
    queue_id: p.queue_id,
    poi_name: p.poi_name,
    lat: p.lat,
    lng: p.lng,
    fiber_km: p.fiber_km,
    estimated_ttp_months: p.estimated_ttp_months,
    fuel_class: p.fuel_class,
    v: 'published',
    coordinate_precision: p.coordinate_precision,
    representative_point: geo ? { lat: p.lat!, lng: p.lng! } : null,
    site_evaluation_handoff: geo
      ? {
          analyze_site: {
            lat: p.lat!,
            lon: p.lng!,
            ...(p.capacity_mw !== null ? { capacity_mw: p.capacity_mw } : {}),
            include_risk: true,
            include_fiber: true,
          },
          get_water_risk: { lat: p.lat!, lng: p.lng! },
        }
      : null,
    candidate_id: candidateId(seed, p.queue_id, snap),
  };
}

/** Counts of the returned rows by ISO and fuel class, and how many are geocoded. */
function summaryOf(results: ReadonlyArray<{ iso: string; fuel_class: string; lat: number | null }>) {
  const byIso: Record<string, number> = {};
  const byClass: Record<string, number> = {};
  let geocodedReturned = 0;
  for (const r of results) {
    byIso[r.iso] = (byIso[r.iso] ?? 0) + 1;
    byClass[r.fuel_class] = (byClass[r.fuel_class] ?? 0) + 1;
    if (r.lat !== null) geocodedReturned++;
  }
  return { by_iso: byIso, by_fuel_class: byClass, geocoded_returned: geocodedReturned };
}

const QUEUE_PROVENANCE = {
  provenance_version: 1,
  source: 'US ISO public interconnection queues (PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE) — sandbox synthetic rows',
  method: 'Rows generated from DCHUB_SEED in the published queue schema; per-record v=published',
  default_v: 'inferred',
  license: 'CC-BY-4.0',
  cite_as: 'DC Hub, dchub.cloud',
  fallback_url: 'https://dchub.cloud',
};

/**
 * What a time-to-power cut adds: the ISOs it excluded with their waits, the smallest satisfiable cut, and when the
 * cut alone left zero rows, the smallest wait that brings rows back (spec §7 rule 4).
 */
function ttpCutReport(
  scope: readonly string[],
  excluded: readonly string[],
  excludedWithRows: ReadonlySet<string>,
  survivors: number,
): Partial<QueueResultT> {
  const report: Partial<QueueResultT> = {
    isos_excluded_by_ttp: Object.fromEntries(excluded.map((iso) => [iso, ISO_TTP_MONTHS[iso]])),
    min_satisfiable_max_ttp_months: Math.min(...scope.map((iso) => ISO_TTP_MONTHS[iso])),
  };
  if (survivors > 0 || excludedWithRows.size === 0) return report;
  const value = Math.min(...[...excludedWithRows].map((iso) => ISO_TTP_MONTHS[iso]));
  report._error_mitigation = {
    error_version: 1,
    error_code: 'zero_row_ttp_cut',
    severity: 'parameter_adjustment',
    deterministic_hint:
      `No queued capacity matches this time-to-power constraint for the selected ISO(s). ` +
      `Expand max_ttp_months to at least ${value} to return rows (ISO-level average wait).`,
    suggested_params: { max_ttp_months: value },
  };
  return report;
}

/** The refined queue (spec §4.2): every predicate as an intersection, the first `limit` rows, totals over all. */
export function selectQueueSurvivors(
  queue: readonly QueueProject[],
  f: QueueFiltersT,
  seed: string,
  nowMs: number,
): QueueResultT {
  const scope: string[] = f.iso ?? [...QUEUE_ISOS];
  const cut = f.max_ttp_months;
  const excluded = cut === undefined ? [] : scope.filter((iso) => ISO_TTP_MONTHS[iso] > cut);
  const { survivors, excludedWithRows, totalMw } = survivorsOf(queue, f, new Set(excluded));
  const snap = snapshotDate(nowMs);
  const results = survivors.slice(0, f.limit).map((p) => queueRow(p, seed, snap));
  const body: QueueResultT = {
    _entity: 'queue_results',
    ok: true,
    snapshot_id: `snap_${snap}`,
    search_version: 'refined-queue/2026-07-11',
    candidate_ttl_days: 7,
    count_returned: results.length,
    count_total_matching: survivors.length,
    total_queued_mw: Math.round(totalMw * 10) / 10,
    filters_applied: echoFilters(f),
    results,
    summary: summaryOf(results),
    ...attribution(),
    provenance: QUEUE_PROVENANCE,
    note: QUEUE_NOTE,
  };
  if (cut === undefined) return body;
  return { ...body, ...ttpCutReport(scope, excluded, excludedWithRows, survivors.length) };
}

/**
 * The keyless preview (spec §5.3): 3 rows, paid numerics withheld, coordinates rounded, some predicates not applied.
 */
export function previewQueueSurvivors(
  queue: readonly QueueProject[],
  f: QueueFiltersT,
  seed: string,
  nowMs: number,
): QueueResultT {
  const notApplied = PREVIEW_IGNORED.filter((k) => k === 'limit' || f[k] !== undefined);
  const unapplied = Object.fromEntries(PREVIEW_IGNORED.map((k) => [k, undefined]));
  const full = selectQueueSurvivors(queue, { ...f, ...unapplied, limit: PREVIEW_ROWS }, seed, nowMs);
  const r2 = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 100) / 100);
  const results = full.results.map((x) => {
    const lat = r2(x.lat);
    const lng = r2(x.lng);
    return {
      ...x,
      capacity_mw: null,
      estimated_ttp_months: null,
      fiber_km: null,
      lat,
      lng,
      representative_point: lat !== null && lng !== null ? { lat, lng } : null,
      site_evaluation_handoff: null,
    };
  });
  const { isos_excluded_by_ttp: _x, min_satisfiable_max_ttp_months: _m, _error_mitigation: _e, ...rest } = full;
  return {
    ...rest,
    results,
    total_queued_mw: null,
    _locked_fields: ['capacity_mw', 'estimated_ttp_months', 'fiber_km', 'site_evaluation_handoff'],
    _preview_params_not_applied: notApplied,
    ...gatedMarkers(full.count_total_matching, results.length),
  };
}

/** Candidate lifetime: ids of a snapshot older than this are expired. */
export const CANDIDATE_TTL_DAYS = 7;
const candidateMaps = new WeakMap<readonly QueueProject[], Map<string, Map<string, QueueProject>>>();

function candidatesOf(queue: readonly QueueProject[], seed: string, snap: string): Map<string, QueueProject> {
  let bySnap = candidateMaps.get(queue);
  if (!bySnap) candidateMaps.set(queue, (bySnap = new Map<string, Map<string, QueueProject>>()));
  let map = bySnap.get(snap);
  if (!map) {
    map = new Map(queue.map((p) => [candidateId(seed, p.queue_id, snap), p]));
    bySnap.set(snap, map);
    if (bySnap.size > 4) bySnap.delete(bySnap.keys().next().value!);
  }
  return map;
}

/** The project a candidate id stands for in the current snapshot; `expired` when it is the previous snapshot's. */
export function findCandidate(
  queue: readonly QueueProject[],
  seed: string,
  id: string,
  nowMs: number,
): { project: QueueProject } | { expired: true } | undefined {
  const project = candidatesOf(queue, seed, snapshotDate(nowMs)).get(id);
  if (project) return { project };
  const previous = snapshotDate(nowMs - CANDIDATE_TTL_DAYS * 86_400_000);
  return candidatesOf(queue, seed, previous).has(id) ? { expired: true } : undefined;
}
