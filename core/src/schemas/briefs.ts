import { z } from 'zod';
import { optionalNumber, optionalString, showValue } from './params.js';

/** Columns of /api/v1/market-brief/all.csv, in the order of spec §2.6. */
export const BRIEF_CSV_COLUMNS = [
  'market_slug',
  'market_name',
  'verdict',
  'composite_score',
  'excess_power',
  'constraint_score',
  'queue_wait_months',
  'iso',
  'state',
  'operational_mw',
  'pipeline_mw',
  'facility_count',
  'vacancy_pct',
  'lease_rate',
  'top_operator',
  'outlook_word_count',
  'live_as_of',
  'computed_at',
] as const;
export type BriefCsvColumn = (typeof BRIEF_CSV_COLUMNS)[number];

export const VERDICTS = ['BUILD', 'CAUTION', 'AVOID'] as const;

const csvNumber = z
  .union([z.number(), z.string()])
  .nullable()
  .optional()
  .transform((v) => {
    if (v === null || v === undefined || v === '') return null;
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? n : null;
  });
const csvText = z
  .union([z.string(), z.number()])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v)));

/** The real service writes `top_operator` as a Python dict repr; keep the operator's name. */
const operatorName = csvText.transform((s) => {
  const m = /'name':\s*'([^']*)'/.exec(s) ?? /"name":\s*"([^"]*)"/.exec(s);
  return m ? m[1] : s;
});

/** One row of the brief CSV, typed. Unknown extra columns are kept. */
export const BriefCsvRow = z.looseObject({
  market_slug: z.string().min(1),
  market_name: csvText,
  verdict: csvText,
  composite_score: csvNumber,
  excess_power: csvNumber,
  constraint_score: csvNumber,
  queue_wait_months: csvNumber,
  iso: csvText,
  state: csvText,
  operational_mw: csvNumber,
  pipeline_mw: csvNumber,
  facility_count: csvNumber,
  vacancy_pct: csvNumber,
  lease_rate: csvNumber,
  top_operator: operatorName,
  outlook_word_count: csvNumber,
  live_as_of: csvText,
  computed_at: csvText,
});
export type BriefCsvRowT = z.output<typeof BriefCsvRow>;

// ---------------------------------------------------------------- market brief JSON (spec §2.6, §4.5)

const nnum = z.number().nullable();

export const MarketBriefHero = z.looseObject({
  slug: z.string(),
  name: z.string(),
  state: z.string().nullable().optional(),
  iso: z.string().nullable(),
  verdict: z.string(),
  composite_score: nnum,
  excess_power: nnum,
  constraint_score: nnum,
  queue_wait_months: nnum.optional(),
  time_to_power_mo: nnum.optional(),
  computed_at: z.string().nullable(),
});

export const MarketBriefKpis = z.looseObject({
  operational_mw: nnum,
  pipeline_mw: nnum,
  facility_count: nnum,
  vacancy_pct: nnum,
  lease_rate: nnum,
  queue_months: nnum,
  top_operator: z.looseObject({ name: z.string(), facility_count: nnum }).nullable(),
});

export const MarketBriefOutlook = z.looseObject({
  narrative_md: z.string(),
  word_count: nnum,
  generated_at: z.string().nullable(),
  verdict: z.string(),
  rationale: z.string(),
});

const ntext = z.string().nullable();

const Deal = z.looseObject({
  date: ntext,
  buyer: ntext,
  seller: ntext,
  value: nnum,
  mw: nnum,
  type: ntext,
});

/** Brief paywall for callers below Pro (developer is not Pro here). */
export const MarketBriefPaywall = z.looseObject({
  required_tier: z.string(),
  checkout_url: z.string(),
  blurb: z.string(),
});

/**
 * One market brief. The Pro sections (power_grid, pipeline, operators, ma, comps, risk) are
 * complete from Pro and teasers (null / []) below, together with `paywall`.
 */
export const MarketBrief = z.looseObject({
  slug: z.string(),
  hero: MarketBriefHero,
  live_as_of: z.looseObject({ iso: z.string().nullable(), age_hours: nnum }),
  kpis: MarketBriefKpis,
  outlook: MarketBriefOutlook,
  power_grid: z
    .looseObject({
      iso: z.string().nullable(),
      queue_capacity_mw: nnum,
      queue_wait_months: nnum,
      reserve_margin_pct: nnum,
      gen_additions_mw: nnum,
      interconnection_pending_mw: nnum,
    })
    .nullable(),
  pipeline: z.array(z.looseObject({ operator: ntext, facility: ntext, power_mw: nnum, status: ntext, eta: ntext })),
  operators: z.array(z.looseObject({ operator: z.string(), facility_count: nnum, total_mw: nnum })),
  ma: z.array(Deal),
  comps: z.looseObject({ powered_shell: z.array(Deal), land: z.array(Deal) }),
  risk: z.looseObject({ water_stress: ntext, drought_months_d2_plus: nnum, wildfire_seismic_note: ntext }).nullable(),
  paywall: MarketBriefPaywall.optional(),
});
export type MarketBriefT = z.infer<typeof MarketBrief>;

/** GET /api/v1/market-brief/{slug}. */
export const MarketBriefResponse = MarketBrief.extend({
  ok: z.boolean(),
  requested: z.string(),
  redirect_to: z.string().nullable(),
  tier: z.string(),
  is_pro: z.boolean(),
});
export type MarketBriefResponseT = z.infer<typeof MarketBriefResponse>;

/** 404 of the single brief: `market_not_found` with up to 12 valid slugs. */
export const MarketBriefNotFound = z.looseObject({
  ok: z.literal(false),
  error: z.literal('market_not_found'),
  slug: z.string(),
  sample_markets: z.array(z.string()).max(12),
});

/** GET /api/v1/market-brief/all (key order: as_of, tier, count, total_available, limit, offset, streamed, briefs). */
export const MarketBriefAll = z.looseObject({
  as_of: z.string(),
  tier: z.string(),
  count: z.number(),
  total_available: z.number(),
  limit: z.number(),
  offset: z.number(),
  streamed: z.boolean(),
  briefs: z.array(MarketBrief),
});
export type MarketBriefAllT = z.infer<typeof MarketBriefAll>;

/** GET /api/v1/market-brief/diff: briefs whose `computed_at` is later than `since`. */
export const MarketBriefDiff = MarketBriefAll.extend({
  since: z.string().nullable(),
  changed_total: z.number(),
});
export type MarketBriefDiffT = z.infer<typeof MarketBriefDiff>;

/** 429 of the bulk brief endpoints (daily cap per caller). */
export const MarketBriefCapExceeded = z.looseObject({
  error: z.literal('daily_cap_exceeded'),
  tool: z.string(),
  tier: z.string(),
  limit: z.string(),
  current_count: z.number(),
  upgrade_url: z.string(),
  message: z.string(),
});

// ---------------------------------------------------------------- paging of /all, /all.csv and /diff

/** Paging of the bulk brief endpoints; the tier's maximum (50, or 500 from Pro) is checked per call. */
export const BriefPageQuery = z.object({
  limit: optionalNumber({
    int: true,
    min: 1,
    max: 500,
    description: 'Page size (default 50; at most 50 below Pro, 500 from Pro)',
  }).transform((n) => n ?? 50),
  offset: optionalNumber({ int: true, min: 0, max: 1_000_000, description: 'Briefs to skip (default 0)' }).transform(
    (n) => n ?? 0,
  ),
});

export const BriefDiffQuery = BriefPageQuery.extend({
  since: optionalString({
    maxLength: 40,
    pattern:
      /^\s*\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[Tt ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?\s*$/,
    refused: (v) => `must be an ISO 8601 timestamp such as 2026-11-20T06:00:00Z, got ${showValue(v)}`,
    description: 'ISO 8601 timestamp (or date); briefs whose computed_at is later',
  }),
});
