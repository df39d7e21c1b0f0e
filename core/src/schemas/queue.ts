import { z } from 'zod';
import { Envelope, Provenance } from './envelope.js';
import { booleanParam, optionalNumber, type ParamMeta } from './params.js';

/** The seven US grid operators of the queue, in their canonical spelling. */
export const QUEUE_ISOS = ['PJM', 'ERCOT', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISO-NE'] as const;
export type QueueIso = (typeof QUEUE_ISOS)[number];

const ISO_BY_KEY = new Map<string, QueueIso>(QUEUE_ISOS.map((iso) => [iso.replace(/[^A-Z0-9]/g, ''), iso]));
ISO_BY_KEY.set('ISNE', 'ISO-NE');

/** `iso-ne`, `ISONE` and `ISO NE` all mean ISO-NE (spec §4.2: hyphens are normalized). */
export function normalizeIso(token: string): QueueIso | undefined {
  return ISO_BY_KEY.get(token.toUpperCase().replace(/[^A-Z0-9]/g, ''));
}

const splitList = (v: unknown): string[] | undefined => {
  if (v === undefined || v === null) return undefined;
  const parts = (Array.isArray(v) ? v.map(String) : [String(v)])
    .flatMap((s) => s.split(/[,;]/))
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.length ? parts : undefined;
};

const isoParam = z
  .unknown()
  .optional()
  .transform((v, ctx): QueueIso[] | undefined => {
    const tokens = splitList(v);
    if (!tokens) return undefined;
    const out: QueueIso[] = [];
    for (const t of tokens) {
      const iso = normalizeIso(t);
      if (!iso) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown ISO ${JSON.stringify(t)}; expected one or more of ${QUEUE_ISOS.join(', ')}`,
          input: v,
        });
        return z.NEVER;
      }
      if (!out.includes(iso)) out.push(iso);
    }
    return out;
  })
  .meta({
    param: {
      type: 'string',
      description: 'Comma-separated union of PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE (ISONE accepted)',
    } satisfies ParamMeta,
  });

const FUEL_TOKEN = /^[A-Za-z0-9 /+-]{1,24}$/;
const fuelParam = z
  .unknown()
  .optional()
  .transform((v, ctx): string[] | undefined => {
    const tokens = splitList(v);
    if (!tokens) return undefined;
    const bad = tokens.find((t) => !FUEL_TOKEN.test(t));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `fuel label ${JSON.stringify(bad)} must be 1-24 letters, digits, spaces or / + -`,
        input: v,
      });
      return z.NEVER;
    }
    return tokens;
  })
  .meta({
    param: {
      type: 'string',
      description: 'Case-insensitive substring of the raw fuel label; comma or semicolon separates a union',
    } satisfies ParamMeta,
  });

const statusParam = z
  .unknown()
  .optional()
  .transform((v, ctx): string => {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return 'active';
    if (typeof v !== 'string' || v.length > 64) {
      ctx.addIssue({ code: 'custom', message: 'must be "active", "all" or a status substring (≤64 chars)', input: v });
      return z.NEVER;
    }
    return v.trim();
  })
  .meta({
    param: {
      type: 'string',
      default: 'active',
      description: '"active" (default) drops withdrawn, cancelled, suspended and operating projects; "all" keeps every status; other text is a substring match',
    } satisfies ParamMeta,
  });

export const QUEUE_LIMIT_MAX = 1000;
export const QUEUE_LIMIT_DEFAULT = 200;

/** Predicates of GET /api/v1/interconnection-queue/refined (spec §4.2). */
export const QueueFilters = z.object({
  iso: isoParam,
  min_mw: optionalNumber({ min: 0, description: 'Minimum project capacity, MW' }),
  max_ttp_months: optionalNumber({ gt: 0, description: 'Keep ISOs whose average time to power is at or under this many months' }),
  fuel_type: fuelParam,
  status: statusParam,
  baseload_only: booleanParam(false, 'Keep firm/dispatchable fuels only (drops wind, solar, storage)'),
  max_fiber_km: optionalNumber({ min: 0, description: 'Maximum km to the nearest mapped long-haul fiber endpoint; implies geocoded rows' }),
  geocoded_only: booleanParam(false, 'Keep survivors with latitude and longitude'),
  limit: optionalNumber({ int: true, min: 1, max: QUEUE_LIMIT_MAX, description: 'Maximum rows returned (default 200)' }).transform(
    (n) => n ?? QUEUE_LIMIT_DEFAULT,
  ),
});
export type QueueFiltersInput = {
  iso?: string | readonly string[] | null;
  min_mw?: number | string | null;
  max_ttp_months?: number | string | null;
  fuel_type?: string | readonly string[] | null;
  status?: string | null;
  baseload_only?: boolean | string | null;
  max_fiber_km?: number | string | null;
  geocoded_only?: boolean | string | null;
  limit?: number | string | null;
};
export type QueueFiltersT = z.output<typeof QueueFilters>;

/** The canonical query string of a filter set: fixed key order, unset predicates left out. */
export function queueSearchParams(f: QueueFiltersT): URLSearchParams {
  const p = new URLSearchParams();
  if (f.iso) p.set('iso', f.iso.join(','));
  if (f.min_mw !== undefined) p.set('min_mw', String(f.min_mw));
  if (f.max_ttp_months !== undefined) p.set('max_ttp_months', String(f.max_ttp_months));
  if (f.fuel_type) p.set('fuel_type', f.fuel_type.join(','));
  if (f.status !== 'active') p.set('status', f.status);
  if (f.baseload_only) p.set('baseload_only', 'true');
  if (f.max_fiber_km !== undefined) p.set('max_fiber_km', String(f.max_fiber_km));
  if (f.geocoded_only) p.set('geocoded_only', 'true');
  if (f.limit !== QUEUE_LIMIT_DEFAULT) p.set('limit', String(f.limit));
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

/** The real service's spellings (`lon`, `capacity`) folded into the spec's (`lng`, `capacity_mw`). */
const foldRecordAliases = (v: unknown) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const r = v as Record<string, unknown>;
  if (r.lng === undefined && r.lon !== undefined) return foldRecordAliases({ ...r, lng: r.lon });
  if (r.capacity_mw === undefined && r.capacity !== undefined) return { ...r, capacity_mw: r.capacity };
  return r;
};

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
