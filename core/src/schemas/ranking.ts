import { z } from 'zod';
import { Envelope } from './envelope.js';
import { booleanParam, optionalNumber, readWithShape, showValue } from './params.js';

export const RANK_MAX_CANDIDATES = 1000;
export const RANK_DEFAULT_TOP_K = 3;
/** Objectives and constraints a request may name. */
export const RANK_MAX_OBJECTIVES = 100;
export const RANK_MAX_CONSTRAINTS = 100;

const show = (v: unknown): string => showValue(v);

/**
 * A candidate: `{id?, lat?, lng?|lon?, <metric>: number...}`; nested `{id, fields:{...}}` is flattened (top-level keys
 * win).
 */
const candidate = readWithShape(z.looseObject({}), (v, ctx): Record<string, unknown> => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    ctx.addIssue({ code: 'custom', message: `must be an object, got ${show(Array.isArray(v) ? 'array' : v)}` });
    return z.NEVER;
  }
  const { fields, ...top } = v as Record<string, unknown>;
  if (fields && typeof fields === 'object' && !Array.isArray(fields))
    return { ...(fields as Record<string, unknown>), ...top };
  return fields === undefined ? top : { ...top, fields };
});

/**
 * A weight: a number or its text, non-zero. The text's pattern says so too (a non-zero digit in the
 * mantissa; at most 64 characters and an exponent of at most two digits, so never Infinity nor 0).
 */
const NON_ZERO_NUMBER_TEXT = /^\s*[-+]?(?:\d*[1-9]\d*\.?\d*|\d*\.\d*[1-9]\d*)(?:[eE][-+]?\d{1,2})?\s*$/;
/** Any finite double: an integer literal past ±1.8e308 is read as ±Infinity, so the schema says where numbers end. */
const Finite = () => z.number().min(-Number.MAX_VALUE).max(Number.MAX_VALUE);
const Weight = z.union([Finite().meta({ not: { const: 0 } }), z.string().max(64).regex(NON_ZERO_NUMBER_TEXT)]);
/** A bound: a number or its text (at most 64 characters, an exponent of at most two digits: always finite). */
const RangeBound = z.union([
  Finite(),
  z
    .string()
    .max(64)
    .regex(/^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d{1,2})?\s*$/),
  z.null(),
]);

const objectives = readWithShape(
  z.record(z.string(), Weight).meta({ minProperties: 1, maxProperties: RANK_MAX_OBJECTIVES }),
  (v, ctx): Record<string, number> => {
    const fail = (message: string, path: (string | number)[] = []) => {
      ctx.addIssue({ code: 'custom', message, path });
      return z.NEVER;
    };
    if (v === undefined || v === null)
      return fail('objectives required: {field: weight} — +weight maximizes, -weight minimizes');
    if (typeof v !== 'object' || Array.isArray(v)) return fail('must be an object {field: weight}');
    const out: Record<string, number> = {};
    for (const [k, w] of Object.entries(v as Record<string, unknown>)) {
      const n = typeof w === 'number' ? w : typeof w === 'string' && w.trim() ? Number(w) : Number.NaN;
      if (!Number.isFinite(n)) return fail(`weight must be a number, got ${show(w)}`, [k]);
      if (n === 0) return fail('weight must be non-zero (+ maximizes, - minimizes)', [k]);
      out[k] = n;
    }
    if (!Object.keys(out).length)
      return fail('objectives required: {field: weight} — +weight maximizes, -weight minimizes');
    return out;
  },
).meta({ description: 'A signed non-zero weight per field: + maximizes, - minimizes' });

const bound = (v: unknown): number | undefined | null => {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/** A bound: min, max or both, at least one a number (`{}` or nulls only are refused, as the handler refuses them). */
const Range = z.looseObject({ min: RangeBound.optional(), max: RangeBound.optional() }).meta({
  anyOf: [
    { required: ['min'], properties: { min: { not: { type: 'null' } } } },
    { required: ['max'], properties: { max: { not: { type: 'null' } } } },
  ],
});
const constraints = readWithShape(
  z.union([z.record(z.string(), Range).meta({ maxProperties: RANK_MAX_CONSTRAINTS }), z.null()]),
  (v, ctx): Record<string, { min?: number; max?: number }> => {
    if (v === undefined || v === null) return {};
    if (typeof v !== 'object' || Array.isArray(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be an object {field: {min?, max?}}' });
      return z.NEVER;
    }
    const out: Record<string, { min?: number; max?: number }> = {};
    for (const [k, c] of Object.entries(v as Record<string, unknown>)) {
      if (!c || typeof c !== 'object' || Array.isArray(c)) {
        ctx.addIssue({ code: 'custom', message: 'must be an object {min?, max?}', path: [k] });
        return z.NEVER;
      }
      const { min, max } = c as Record<string, unknown>;
      const lo = bound(min);
      const hi = bound(max);
      if (lo === null || hi === null) {
        ctx.addIssue({ code: 'custom', message: 'must be a number', path: [k, lo === null ? 'min' : 'max'] });
        return z.NEVER;
      }
      if (lo === undefined && hi === undefined) {
        ctx.addIssue({ code: 'custom', message: 'needs min or max', path: [k] });
        return z.NEVER;
      }
      out[k] = { ...(lo !== undefined ? { min: lo } : {}), ...(hi !== undefined ? { max: hi } : {}) };
    }
    return out;
  },
)
  .optional()
  .transform((c) => c ?? {})
  // A min above its max is an empty range (JSON Schema cannot compare the two): it keeps no candidate.
  .meta({
    description:
      'Bounds {min?, max?} per field: hard filters, fail-closed (a candidate missing the field is dropped; a min above ' +
      'its max keeps none)',
  });

const topK = optionalNumber({
  int: true,
  min: 1,
  max: RANK_MAX_CANDIDATES,
  description: `Ranked candidates to return, 1-${RANK_MAX_CANDIDATES} (default ${RANK_DEFAULT_TOP_K})`,
}).transform((n) => n ?? RANK_DEFAULT_TOP_K);

/** Request body of `POST /api/v1/rank-sites` (spec §4.4). */
export const RankSitesRequest = z.object({
  candidates: z
    .array(candidate, { error: 'must be a non-empty list of candidate objects' })
    .min(1, 'must be a non-empty list')
    .max(RANK_MAX_CANDIDATES, `at most ${RANK_MAX_CANDIDATES} candidates are accepted`)
    .meta({
      description:
        `Candidate sites, 1-${RANK_MAX_CANDIDATES}: each an id, lat, lng (lon accepted) and the metric fields ` +
        'the objectives and constraints name',
    }),
  objectives,
  constraints,
  absolute: booleanParam(false, 'Fixed 0-100 scale (value clamped; 100 - v when minimizing)'),
  percentile: booleanParam(false, 'Percentile against the viable-site population; precedence over absolute'),
  top_k: topK,
});

export const RANK_SCORING_MODES = ['relative', 'absolute', 'percentile'] as const;

export const RankedSite = z.looseObject({
  rank: z.number().int(),
  objective_score: z.number().nullable(),
  normalized: z.record(z.string(), z.number()),
  missing_objectives: z.array(z.string()).optional(),
});

/** `ranked_sites` envelope (spec §2.4; reference notes §2.23). */
export const RankedSites = Envelope.extend({
  _entity: z.literal('ranked_sites'),
  ok: z.literal(true),
  scoring_mode: z.enum(RANK_SCORING_MODES),
  objective_status: z.array(
    z.looseObject({
      objective: z.string(),
      status: z.string(),
      basis: z.string().optional(),
      reason: z.string().optional(),
    }),
  ),
  constraint_coverage: z.record(z.string(), z.string()),
  count_ranked: z.number().int(),
  count_returned: z.number().int(),
  dropped_by_constraints: z.number().int(),
  results: z.array(RankedSite),
  normalization_basis: z.record(z.string(), z.looseObject({ direction: z.enum(['maximize', 'minimize']) })),
  baseline: z
    .looseObject({
      age_hours: z.number(),
      computed_at: z.string(),
      metrics: z.number().int(),
      min_sample_size: z.number().int(),
    })
    .partial()
    .optional(),
  percentile_baseline_available: z.array(z.string()).optional(),
  unbaselined_fields_fell_back_to_relative: z.array(z.string()).optional(),
  caveats: z.array(z.string()).optional(),
  note: z.string().optional(),
});

export type RankSitesRequestT = z.output<typeof RankSitesRequest>;
export type RankedSitesT = z.infer<typeof RankedSites>;

/**
 * What a caller gives `rank-sites` (core's call, every host's form): the request's fields, with
 * `mode` in place of the `absolute`/`percentile` flags.
 */
export const RankSitesArgs = RankSitesRequest.omit({ absolute: true, percentile: true }).extend({
  mode: z
    .enum(RANK_SCORING_MODES)
    .optional()
    .meta({ description: 'relative (default), absolute (fixed 0-100 scale) or percentile (against the viable sites)' }),
});
export type RankSitesArgsInput = z.input<typeof RankSitesArgs>;
