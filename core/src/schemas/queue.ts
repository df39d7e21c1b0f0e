import { z } from 'zod';
import { Envelope, Provenance } from './envelope.js';
import { booleanParam, listParam, optionalNumber, optionalString, showValue } from './params.js';

/** The seven US grid operators of the queue, in their canonical spelling. */
export const QUEUE_ISOS = ['PJM', 'ERCOT', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISO-NE'] as const;
export type QueueIso = (typeof QUEUE_ISOS)[number];

const ISO_BY_KEY = new Map<string, QueueIso>(QUEUE_ISOS.map((iso) => [iso.replace(/[^A-Z0-9]/g, ''), iso]));
ISO_BY_KEY.set('ISNE', 'ISO-NE');

/** `iso-ne`, `ISONE` and `ISO NE` all mean ISO-NE (spec §4.2: hyphens are normalized). */
export function normalizeIso(token: string): QueueIso | undefined {
  return ISO_BY_KEY.get(token.toUpperCase().replace(/[^A-Z0-9]/g, ''));
}

/**
 * `^ T ([,;] T)* [,;]? $` with space allowed around the separators: a list of tokens matching `token`
 * (a trailing separator, as people type `PJM,` or `solar;`, adds nothing).
 */
const listPattern = (token: string) => new RegExp(`^\\s*(?:${token})(?:\\s*[,;]\\s*(?:${token}))*(?:\\s*[,;])?\\s*$`);
const splitTokens = (s: string) =>
  s
    .split(/[,;]/)
    .map((t) => t.trim())
    .filter(Boolean);

/** The ISO spellings accepted: canonical names, any case; ISO-NE also as ISONE, ISO NE, ISO_NE. */
const ISO_TOKEN = [...QUEUE_ISOS.filter((iso) => iso !== 'ISO-NE'), 'ISO[-_ ]?NE']
  .map((w) => w.replace(/[A-Z]/g, (c) => `[${c}${c.toLowerCase()}]`))
  .join('|');

const isoParam = listParam(
  listPattern(ISO_TOKEN),
  (s) => {
    const out: QueueIso[] = [];
    for (const t of splitTokens(s)) {
      const iso = normalizeIso(t);
      if (iso && !out.includes(iso)) out.push(iso);
    }
    return out;
  },
  (v) => {
    const bad = typeof v === 'string' ? splitTokens(v).find((t) => !normalizeIso(t)) : undefined;
    return `unknown ISO ${showValue(bad ?? v)}; expected one or more of ${QUEUE_ISOS.join(', ')}, comma-separated`;
  },
  'Comma-separated union of PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE (ISONE accepted), any case',
);

/** A fuel label: 1-24 letters, digits, spaces or / + - (no space at either end). */
const FUEL_TOKEN = '[A-Za-z0-9/+-](?:[A-Za-z0-9 /+-]{0,22}[A-Za-z0-9/+-])?';
const fuelParam = listParam(
  listPattern(FUEL_TOKEN),
  splitTokens,
  (v) =>
    `must be fuel labels of 1-24 letters, digits, spaces or / + -, comma- or semicolon-separated, got ${showValue(v)}`,
  'Case-insensitive substring of the raw fuel label; comma or semicolon separates a union',
);

const statusParam = optionalString({
  maxLength: 64,
  description:
    '"active" (default) drops withdrawn, cancelled, suspended and operating projects; "all" keeps every status; other text is a substring match',
}).transform((s) => s ?? 'active');

export const QUEUE_LIMIT_MAX = 1000;
export const QUEUE_LIMIT_DEFAULT = 200;

/** Predicates of GET /api/v1/interconnection-queue/refined (spec §4.2). */
export const QueueFilters = z.object({
  iso: isoParam,
  min_mw: optionalNumber({ min: 0, description: 'Minimum project capacity, MW' }),
  max_ttp_months: optionalNumber({
    gt: 0,
    description: 'Keep ISOs whose average time to power is at or under this many months',
  }),
  fuel_type: fuelParam,
  status: statusParam,
  baseload_only: booleanParam(false, 'Keep firm/dispatchable fuels only, dropping wind, solar and storage'),
  max_fiber_km: optionalNumber({
    min: 0,
    description: 'Maximum km to the nearest mapped long-haul fiber endpoint; implies geocoded rows',
  }),
  geocoded_only: booleanParam(false, 'Keep survivors with latitude and longitude'),
  limit: optionalNumber({
    int: true,
    min: 1,
    max: QUEUE_LIMIT_MAX,
    description: `Maximum rows returned, 1-${QUEUE_LIMIT_MAX} (default ${QUEUE_LIMIT_DEFAULT})`,
  }).transform((n) => n ?? QUEUE_LIMIT_DEFAULT),
});
/** What a caller may pass: numbers or their text, booleans or yes/no text, lists as arrays or comma-separated text. */
export type QueueFiltersInput = z.input<typeof QueueFilters>;
export type QueueFiltersT = z.output<typeof QueueFilters>;

/** The nine predicate names of the refined queue, in the canonical query order (written once, here). */
export const QUEUE_PREDICATES = QueueFilters.keyof().options;
export type QueuePredicate = (typeof QUEUE_PREDICATES)[number];

/** The canonical query string of a filter set: fixed key order, unset and default predicates left out. */
export function queueSearchParams(f: QueueFiltersT): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of QUEUE_PREDICATES) {
    const v = f[k];
    if (
      v === undefined ||
      v === false ||
      (k === 'status' && v === 'active') ||
      (k === 'limit' && v === QUEUE_LIMIT_DEFAULT)
    )
      continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return p;
}

const LatLng = z.looseObject({ lat: z.number(), lng: z.number() });

export const SiteEvaluationHandoff = z.looseObject({
  analyze_site: z.looseObject({
    lat: z.number(),
    lon: z.number(),
    capacity_mw: z.number().optional(),
    include_fiber: z.boolean().optional(),
    include_risk: z.boolean().optional(),
  }),
  get_water_risk: z.looseObject({ lat: z.number().optional(), lng: z.number().optional() }).optional(),
});

/**
 * The real service's spellings (`lon`, `capacity`) folded into the spec's (`lng`, `capacity_mw`), the
 * one rule for queue records and the candidates made from them (the given members are kept).
 */
export function foldQueueSpellings(r: Record<string, unknown>): Record<string, unknown> {
  const lng = r.lng === undefined && r.lon !== undefined;
  const capacity = r.capacity_mw === undefined && r.capacity !== undefined;
  if (!lng && !capacity) return r;
  return { ...r, ...(lng ? { lng: r.lon } : {}), ...(capacity ? { capacity_mw: r.capacity } : {}) };
}
const foldRecordAliases = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? foldQueueSpellings(v as Record<string, unknown>) : v;

/** One survivor of the refined queue (reference notes §2.21). */
export const QueueRecordShape = z.looseObject({
  candidate_id: z.string().optional(),
  queue_id: z.string(),
  project_name: z.string().nullable().optional(),
  iso: z.string(),
  state: z.string().nullable().optional(),
  county: z.string().nullable().optional(),
  fuel_type: z.string().nullable().optional(),
  fuel_class: z.string().nullable().optional(),
  capacity_mw: z.number().nullable().optional(),
  queue_status: z.string().nullable().optional(),
  queue_date: z.string().nullable().optional(),
  poi_name: z.string().nullable().optional(),
  lat: z.number().nullable().optional(),
  lng: z.number().nullable().optional(),
  fiber_km: z.number().nullable().optional(),
  estimated_ttp_months: z.number().nullable().optional(),
  coordinate_precision: z.string().nullable().optional(),
  v: z.string().optional(),
  representative_point: LatLng.nullable().optional(),
  site_evaluation_handoff: SiteEvaluationHandoff.nullable().optional(),
});
export const QueueRecord = z.preprocess(foldRecordAliases, QueueRecordShape);

export const ErrorMitigation = z.looseObject({
  error_code: z.string(),
  error_version: z.number(),
  severity: z.string(),
  deterministic_hint: z.string(),
  suggested_params: z.record(z.string(), z.unknown()).optional(),
});

/** `_entity: "queue_results"` (spec §2.2). */
export const QueueResult = Envelope.extend({
  _entity: z.literal('queue_results'),
  ok: z.literal(true),
  snapshot_id: z.string().optional(),
  search_version: z.string().optional(),
  candidate_ttl_days: z.number().int().optional(),
  count_returned: z.number().int(),
  count_total_matching: z.number().int(),
  total_queued_mw: z.number().nullable().optional(),
  filters_applied: z.looseObject({
    baseload_only: z.boolean().nullable(),
    fuel_type: z.string().nullable(),
    geocoded_only: z.boolean().nullable(),
    iso: z.string().nullable(),
    max_fiber_km: z.number().nullable(),
    max_ttp_months: z.number().nullable(),
    min_mw: z.number().nullable(),
    status: z.string().nullable(),
  }),
  isos_excluded_by_ttp: z.record(z.string(), z.number()).optional(),
  min_satisfiable_max_ttp_months: z.number().nullable().optional(),
  results: z.array(QueueRecord),
  summary: z.looseObject({}).optional(),
  provenance: Provenance.optional(),
  note: z.string().optional(),
  _error_mitigation: ErrorMitigation.optional(),
});
export type QueueRecordT = z.infer<typeof QueueRecordShape>;
export type QueueResultT = z.infer<typeof QueueResult>;
