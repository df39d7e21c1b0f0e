import {
  QUEUE_ISOS,
  QUEUE_LIMIT_MAX,
  QueueResult,
  normalizeIso,
  type QueueFiltersT,
  type QueueIso,
  type QueueRecordT,
  type QueueResultT,
} from '../schemas/queue.js';
import { isPreview, sameJson } from './values.js';

/**
 * Answers a refined-queue question F from a complete answer to a wider question G, exactly as the
 * service would answer F (spec §4.2; the sandbox's order, echo and time-to-power report). Every
 * predicate where F is stricter than G is applied to G's survivors, in the service's order; the
 * rest of the answer is rebuilt by the service's rules. When any part cannot be rebuilt exactly
 * from what the survivors carry, the answer is refused with the reason, and the caller fetches.
 */

export type Derived<T> = { ok: true; value: T } | { ok: false; reason: string };
const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** Terminal status stems that `status=active` drops (notes §2.21; the sandbox uses the same). */
const TERMINAL_STATUS = ['withdraw', 'cancel', 'terminat', 'suspend', 'commercial operation', 'deactivat'];
const FIRM = 'firm/baseload-capable';
const INTERMITTENT = 'intermittent';

type StatusRule = { kind: 'active' } | { kind: 'all' } | { kind: 'substring'; text: string };
const statusRule = (s: string): StatusRule => {
  const text = s.toLowerCase();
  return text === 'active' ? { kind: 'active' } : text === 'all' ? { kind: 'all' } : { kind: 'substring', text };
};

const statusKeeps = (rule: StatusRule, status: string): boolean => {
  const s = status.toLowerCase();
  if (rule.kind === 'all') return true;
  if (rule.kind === 'active') return !TERMINAL_STATUS.some((t) => s.includes(t));
  return s.includes(rule.text);
};

/** F's status relative to G's: the same filter, a narrower one, or neither. */
function statusRelation(g: string, f: string): 'same' | 'narrower' | undefined {
  const gr = statusRule(g);
  const fr = statusRule(f);
  if (gr.kind === 'all') return fr.kind === 'all' ? 'same' : 'narrower';
  if (gr.kind === 'active') return fr.kind === 'active' ? 'same' : undefined;
  if (fr.kind !== 'substring' || !fr.text.includes(gr.text)) return undefined;
  return fr.text === gr.text ? 'same' : 'narrower';
}

const lowerSet = (xs: readonly string[] | undefined) => new Set((xs ?? []).map((x) => x.toLowerCase()));
const sameSet = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => a.size === b.size && [...a].every((x) => b.has(x));

/** Why G does not contain F (undefined when every predicate of F is at least as strict as G's). */
export function whyNotWider(g: QueueFiltersT, f: QueueFiltersT): string | undefined {
  if (g.iso && (!f.iso || !f.iso.every((iso) => g.iso!.includes(iso)))) return 'iso: not a subset';
  if (g.min_mw !== undefined && (f.min_mw === undefined || f.min_mw < g.min_mw)) return 'min_mw: lower';
  if (g.max_ttp_months !== undefined && (f.max_ttp_months === undefined || f.max_ttp_months > g.max_ttp_months))
    return 'max_ttp_months: higher';
  // A label containing F's token contains every substring of it, so F's union must be covered token by token.
  if (g.fuel_type) {
    const gl = [...lowerSet(g.fuel_type)];
    if (!f.fuel_type || ![...lowerSet(f.fuel_type)].every((t) => gl.some((u) => t.includes(u))))
      return 'fuel_type: not covered';
  }
  if (!statusRelation(g.status, f.status)) return 'status: not narrower';
  if (g.baseload_only && !f.baseload_only) return 'baseload_only: dropped';
  if (g.geocoded_only && !f.geocoded_only) return 'geocoded_only: dropped';
  if (g.max_fiber_km !== undefined && (f.max_fiber_km === undefined || f.max_fiber_km > g.max_fiber_km))
    return 'max_fiber_km: higher';
  return undefined;
}

/** The widest request likely to come back complete for F: its ISO set and status, limit 1000. */
export function widenQueueFilters(f: QueueFiltersT): QueueFiltersT {
  return {
    iso: f.iso,
    status: f.status,
    baseload_only: false,
    geocoded_only: false,
    limit: QUEUE_LIMIT_MAX,
    min_mw: undefined,
    max_ttp_months: undefined,
    fuel_type: undefined,
    max_fiber_km: undefined,
  };
}

/** `filters_applied` as the service echoes a filter set (unset predicates null). */
export function echoFilters(f: QueueFiltersT): QueueResultT['filters_applied'] {
  return {
    baseload_only: f.baseload_only,
    fuel_type: f.fuel_type ? f.fuel_type.join(',') : null,
    geocoded_only: f.geocoded_only,
    iso: f.iso ? f.iso.join(',') : null,
    max_fiber_km: f.max_fiber_km ?? null,
    max_ttp_months: f.max_ttp_months ?? null,
    min_mw: f.min_mw ?? null,
    status: f.status,
  };
}

/** The per-answer summary the service computes over the returned rows. */
export function summarize(rows: readonly QueueRecordT[]): {
  by_iso: Record<string, number>;
  by_fuel_class: Record<string, number>;
  geocoded_returned: number;
} {
  const byIso: Record<string, number> = {};
  const byClass: Record<string, number> = {};
  let geocoded = 0;
  for (const r of rows) {
    byIso[r.iso] = (byIso[r.iso] ?? 0) + 1;
    const cls = String(r.fuel_class);
    byClass[cls] = (byClass[cls] ?? 0) + 1;
    if (r.lat !== null && r.lat !== undefined) geocoded++;
  }
  return { by_iso: byIso, by_fuel_class: byClass, geocoded_returned: geocoded };
}

/** Sum of capacity over every match, 1 decimal (a sum of 1-decimal numbers: the order cannot change it). */
const totalMw = (rows: readonly QueueRecordT[]) =>
  Math.round(rows.reduce((s, r) => s + (r.capacity_mw ?? 0), 0) * 10) / 10;

/** The zero-row advice of spec §7 rule 4, as the service words it. */
export function ttpCutMitigation(value: number): NonNullable<QueueResultT['_error_mitigation']> {
  // Members in the schema's order, like a validated answer.
  return {
    error_code: 'zero_row_ttp_cut',
    error_version: 1,
    severity: 'parameter_adjustment',
    deterministic_hint:
      `No queued capacity matches this time-to-power constraint for the selected ISO(s). ` +
      `Expand max_ttp_months to at least ${value} to return rows (ISO-level average wait).`,
    suggested_params: { max_ttp_months: value },
  };
}

/** ISO-level waits known from the answer: the survivors' `estimated_ttp_months` and the excluded report. */
function knownWaits(a: QueueResultT): Derived<Map<QueueIso, number>> {
  const waits = new Map<QueueIso, number>();
  const note = (name: string, t: number): string | undefined => {
    const iso = normalizeIso(name);
    if (!iso) return `unknown ISO ${JSON.stringify(name)}`;
    const had = waits.get(iso);
    if (had !== undefined && had !== t) return `${iso} carries two waits`;
    waits.set(iso, t);
    return undefined;
  };
  for (const r of a.results) {
    if (typeof r.estimated_ttp_months !== 'number') continue;
    const bad = note(r.iso, r.estimated_ttp_months);
    if (bad) return refuse(bad);
  }
  for (const [name, t] of Object.entries(a.isos_excluded_by_ttp ?? {})) {
    if (normalizeIso(name) !== name) return refuse(`isos_excluded_by_ttp spells ${JSON.stringify(name)} differently`);
    const bad = note(name, t);
    if (bad) return refuse(bad);
  }
  return { ok: true, value: waits };
}

interface RowTest {
  name: string;
  /** The row carries what the predicate reads. */
  carries: (r: QueueRecordT) => boolean;
  keeps: (r: QueueRecordT) => boolean;
}

/** Tests for the predicates where F is stricter than G (the others hold for every survivor already). */
function stricterTests(g: QueueFiltersT, f: QueueFiltersT): RowTest[] {
  const tests: RowTest[] = [];
  if (f.iso && (!g.iso || !sameSet(new Set(f.iso), new Set(g.iso)))) {
    const isos = new Set<string>(f.iso);
    tests.push({
      name: 'iso',
      carries: (r) => normalizeIso(r.iso) !== undefined,
      keeps: (r) => isos.has(normalizeIso(r.iso)!),
    });
  }
  if (f.min_mw !== undefined && (g.min_mw === undefined || f.min_mw > g.min_mw)) {
    const min = f.min_mw;
    tests.push({
      name: 'min_mw',
      carries: (r) => r.capacity_mw !== undefined,
      keeps: (r) => r.capacity_mw !== null && r.capacity_mw! >= min,
    });
  }
  if (f.baseload_only && !g.baseload_only) {
    // The service's own classification of each label, carried by every survivor.
    tests.push({
      name: 'baseload_only',
      carries: (r) => r.fuel_class === FIRM || r.fuel_class === INTERMITTENT,
      keeps: (r) => r.fuel_class === FIRM,
    });
  }
  if (f.fuel_type && (!g.fuel_type || !sameSet(lowerSet(f.fuel_type), lowerSet(g.fuel_type)))) {
    const tokens = [...lowerSet(f.fuel_type)];
    tests.push({
      name: 'fuel_type',
      carries: (r) => typeof r.fuel_type === 'string',
      keeps: (r) => tokens.some((t) => r.fuel_type!.toLowerCase().includes(t)),
    });
  }
  if (statusRelation(g.status, f.status) === 'narrower') {
    const rule = statusRule(f.status);
    tests.push({
      name: 'status',
      carries: (r) => typeof r.queue_status === 'string',
      keeps: (r) => statusKeeps(rule, r.queue_status!),
    });
  }
  if (f.max_fiber_km !== undefined && (g.max_fiber_km === undefined || f.max_fiber_km < g.max_fiber_km)) {
    const max = f.max_fiber_km;
    tests.push({
      name: 'max_fiber_km',
      carries: (r) => r.fiber_km !== undefined,
      keeps: (r) => r.fiber_km !== null && r.fiber_km! <= max,
    });
  }
  if (f.geocoded_only && !g.geocoded_only) {
    tests.push({
      name: 'geocoded_only',
      carries: (r) => r.lat !== undefined && r.lng !== undefined,
      keeps: (r) => r.lat !== null && r.lng !== null,
    });
  }
  return tests;
}

/**
 * Whether `a` (the answer to `g`) can serve as a source at all, and the rules of this service
 * agree with ours on it: complete, not a preview, its echo and summary rebuilt exactly.
 */
export function sourceProblem(a: QueueResultT, g: QueueFiltersT): string | undefined {
  if (isPreview(a)) return 'a gated preview answers nothing but itself';
  if (a.count_total_matching !== a.count_returned || a.count_returned !== a.results.length)
    return 'incomplete: the limit cut it';
  if (!sameJson(a.filters_applied, echoFilters(g))) return 'filters_applied is not echoed as expected';
  if (a.summary !== undefined && !sameJson(a.summary, summarize(a.results)))
    return 'summary is not rebuilt as expected';
  if (typeof a.total_queued_mw === 'number' && a.total_queued_mw !== totalMw(a.results))
    return 'total_queued_mw is not rebuilt as expected';
  const m = a._error_mitigation;
  if (m && !sameJson(m, ttpCutMitigation(Number(m.suggested_params?.max_ttp_months))))
    return '_error_mitigation is worded differently';
  return undefined;
}

/** F's answer from `a`, the complete answer to the wider `g`; or why it cannot be derived exactly. */
export function deriveQueueAnswer(a: QueueResultT, g: QueueFiltersT, f: QueueFiltersT): Derived<QueueResultT> {
  const wider = whyNotWider(g, f);
  if (wider) return refuse(wider);
  const problem = sourceProblem(a, g);
  if (problem) return refuse(problem);

  const tests = stricterTests(g, f);
  for (const t of tests)
    if (!a.results.every(t.carries)) return refuse(`${t.name}: a survivor lacks the field it reads`);

  const cut = f.max_ttp_months;
  const scope: QueueIso[] = f.iso ?? [...QUEUE_ISOS];
  let waits = new Map<QueueIso, number>();
  if (cut !== undefined) {
    const known = knownWaits(a);
    if (!known.ok) return known;
    waits = known.value;
    const unknown = scope.filter((iso) => !waits.has(iso));
    if (unknown.length) return refuse(`max_ttp_months: the wait of ${unknown.join(', ')} is not in the source`);
    if (!a.results.every((r) => normalizeIso(r.iso) !== undefined))
      return refuse('max_ttp_months: a survivor names an unknown ISO');
  }
  const cutsLocally = cut !== undefined && (g.max_ttp_months === undefined || cut < g.max_ttp_months);
  const withinCut = (r: QueueRecordT) => !cutsLocally || waits.get(normalizeIso(r.iso)!)! <= cut;

  const base = tests.length ? a.results.filter((r) => tests.every((t) => t.keeps(r))) : a.results;
  const survivors = cutsLocally ? base.filter(withinCut) : base;
  const results = survivors.slice(0, f.limit);

  const out: QueueResultT = {
    ...a,
    count_returned: results.length,
    count_total_matching: survivors.length,
    filters_applied: { ...a.filters_applied, ...echoFilters(f) },
    results,
  };
  if (typeof a.total_queued_mw === 'number') out.total_queued_mw = totalMw(survivors);
  if (a.summary !== undefined) out.summary = { ...a.summary, ...summarize(results) };
  delete out.isos_excluded_by_ttp;
  delete out.min_satisfiable_max_ttp_months;
  delete out._error_mitigation;
  if (cut === undefined) return { ok: true, value: inSchemaOrder(out) };

  const excluded = scope.filter((iso) => waits.get(iso)! > cut);
  out.isos_excluded_by_ttp = Object.fromEntries(excluded.map((iso) => [iso, waits.get(iso)!]));
  out.min_satisfiable_max_ttp_months = Math.min(...scope.map((iso) => waits.get(iso)!));
  if (survivors.length === 0 && excluded.length) {
    // The advice names the smallest wait among the cut ISOs that hold rows matching every other
    // predicate. An ISO G's own cut removed may hold such rows unseen; its wait is above G's cut,
    // so above every ISO the source shows, and matters only when none of those holds rows.
    const gCut = g.max_ttp_months;
    const seen = excluded.filter((iso) => gCut === undefined || waits.get(iso)! <= gCut);
    const unseen = excluded.filter((iso) => !seen.includes(iso));
    const withRows = seen.filter((iso) => base.some((r) => normalizeIso(r.iso) === iso));
    if (withRows.length) out._error_mitigation = ttpCutMitigation(Math.min(...withRows.map((iso) => waits.get(iso)!)));
    else if (unseen.length)
      return refuse(`_error_mitigation: whether ${unseen.join(', ')} holds matching rows is not in the source`);
  }
  return { ok: true, value: inSchemaOrder(out) };
}

const SCHEMA_KEYS = Object.keys(QueueResult.shape);

/** Members in the order a validated answer has them (the schema's, then the others), like a fetched one. */
function inSchemaOrder(a: QueueResultT): QueueResultT {
  const out: Record<string, unknown> = {};
  for (const k of SCHEMA_KEYS) if (k in a) out[k] = (a as Record<string, unknown>)[k];
  for (const [k, v] of Object.entries(a)) if (!(k in out)) out[k] = v;
  return out as QueueResultT;
}
