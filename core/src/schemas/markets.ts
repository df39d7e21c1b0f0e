import { z } from 'zod';
import { GatedFields } from './envelope.js';
import { choiceParam, numberChoiceParam, optionalNumber, optionalString, readWithShape } from './params.js';

/**
 * Markets, platform totals and the DC Hub Power Index (DCPI): the legacy `success`/`data`
 * answers of spec §4.1 and the DCPI shapes of spec §2.7 (field names as the real service uses
 * them). Loose objects: clients keep members they do not know.
 */

const num = z.number();
const nnum = z.number().nullable();

// ---------------------------------------------------------------- GET /api/v1/stats

export const PlatformStatsData = z.looseObject({
  total_facilities: num,
  total_power_mw: num,
  total_mw: num.optional(),
  total_providers: num,
  total_countries: num,
  countries: num.optional(),
  total_markets: num.optional(),
  total_articles: num.optional(),
  total_transactions: num.optional(),
  total_substations: num.optional(),
  top_countries: z.record(z.string(), num).optional(),
  top_providers: z.record(z.string(), num).optional(),
  by_status: z.record(z.string(), num).optional(),
  pipeline_count: num.optional(),
  pipeline_mw: num.optional(),
  pipeline_gw: num.optional(),
});

/** Platform totals (spec §4.1): `data{...}` plus the top-level counts (the real service leaves some out). */
export const PlatformStats = z.looseObject({
  success: z.boolean(),
  data: PlatformStatsData,
  generated_at: z.string(),
  facilities: num,
  markets: num.optional(),
  deals: num.optional(),
  articles: num.optional(),
  countries: num.optional(),
  providers: num.optional(),
  capacity_mw: num.optional(),
});
export type PlatformStatsT = z.infer<typeof PlatformStats>;

// ---------------------------------------------------------------- GET /api/v1/markets/list

export const MarketListRow = z.looseObject({
  id: z.string(),
  slug: z.string().optional(),
  name: z.string(),
  cities: z.array(z.string()).optional(),
  facility_count: nnum,
  total_power_mw: nnum,
  /** Removed for anonymous and free callers. */
  pipeline_mw_total: nnum.optional(),
  /** Removed for anonymous and free callers; may be null outside the US. */
  avg_kwh_price_usd: nnum.optional(),
  state: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  international: z.boolean().optional(),
  auto_discovered: z.boolean().optional(),
});
export type MarketListRowT = z.infer<typeof MarketListRow>;

export const MarketList = z.looseObject({
  success: z.boolean(),
  count: num,
  total: num,
  tier: z.string(),
  locked: num,
  upsell: z.string().nullable(),
  upgrade_url: z.string().nullable(),
  signup_url: z.string().nullable().optional(),
  data: z.array(MarketListRow),
});
export type MarketListT = z.infer<typeof MarketList>;

// ---------------------------------------------------------------- GET /api/v1/markets/{name}

export const MarketDetail = z.looseObject({
  success: z.boolean(),
  market: z.looseObject({ id: z.string(), name: z.string(), cities: z.array(z.string()).optional() }),
  stats: z.looseObject({ facility_count: nnum, total_power_mw: nnum, avg_power_mw: nnum, provider_count: nnum }),
  /** At most 10 (the service's cut; not enforced when reading). */
  top_providers: z.array(z.looseObject({ name: z.string(), facilities: nnum, power_mw: nnum })),
  by_status: z.record(z.string(), nnum),
  /** At most 5 (the service's cut; not enforced when reading). */
  recent_facilities: z.array(
    z.looseObject({
      id: z.union([num, z.string()]),
      name: z.string(),
      provider: z.string().nullable(),
      city: z.string().nullable(),
      power_mw: nnum,
      status: z.string().nullable(),
      discovered_at: z.string().nullable().optional(),
    }),
  ),
});
export type MarketDetailT = z.infer<typeof MarketDetail>;

// ---------------------------------------------------------------- GET /api/v1/markets/compare

export const MARKET_COMPARE_MAX_LENGTH = 400;
/** A market name in the list: no comma, no space at either end. */
const MARKET_NAME = '[^,\\s](?:[^,]*[^,\\s])?';

/** Two to four market names, read with the real service's messages. */
const marketList = readWithShape(
  z
    .string()
    .regex(new RegExp(`^\\s*${MARKET_NAME}(?:\\s*,\\s*${MARKET_NAME}){1,3}\\s*$`), {
      error: 'provide 2-4 markets to compare, comma-separated',
    })
    .meta({ maxLength: MARKET_COMPARE_MAX_LENGTH }),
  (v, ctx): string[] => {
    const names =
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [];
    if (typeof v === 'string' && [...v].length > MARKET_COMPARE_MAX_LENGTH)
      ctx.issues.push({ code: 'custom', message: `must be at most ${MARKET_COMPARE_MAX_LENGTH} characters`, input: v });
    else if (names.length === 0)
      ctx.issues.push({ code: 'custom', message: 'parameter required (comma-separated)', input: v });
    else if (names.length < 2 || names.length > 4)
      ctx.issues.push({ code: 'custom', message: `provide 2-4 markets to compare, got ${names.length}`, input: v });
    return names;
  },
).meta({ description: 'Two to four market slugs or names, comma-separated' });

export const MarketCompareQuery = z.object({ markets: marketList });

export const MarketCompare = z.looseObject({
  success: z.boolean(),
  comparison: z.array(
    z.looseObject({
      market: z.string(),
      display_name: z.string(),
      metrics: z.looseObject({
        facilities: nnum,
        total_power_mw: nnum,
        avg_power_mw: nnum,
        max_power_mw: nnum,
        providers: nnum,
        operational: nnum,
        pipeline: nnum,
      }),
      top_providers: z.array(z.string()),
    }),
  ),
  generated_at: z.string(),
});
export type MarketCompareT = z.infer<typeof MarketCompare>;

// ---------------------------------------------------------------- DCPI

export const DCPI_VERDICTS = ['BUILD', 'CAUTION', 'AVOID', 'LOW_SIGNAL', 'NODATA'] as const;

/** Per-market DCPI row (spec §2.7 and the inputs the real service returns with it). */
export const DcpiScoreRow = z.looseObject({
  market_slug: z.string(),
  market_name: z.string(),
  state: z.string().nullable().optional(),
  iso: z.string().nullable().optional(),
  latitude: nnum.optional(),
  longitude: nnum.optional(),
  verdict: z.string(),
  composite_score: nnum,
  excess_power_score: nnum,
  constraint_score: nnum,
  time_to_power_months: nnum,
  computed_at: z.string(),
  locked: z.boolean().optional(),
});
export type DcpiScoreRowT = z.infer<typeof DcpiScoreRow>;

const Forecast = z.looseObject({ available: z.boolean() });

/** The power inputs a market's DCPI is computed from (notes §2.6), served with the single answer. */
export const DCPI_INPUT_FIELDS = [
  'queue_capacity_mw',
  'queue_wait_months',
  'reserve_margin_pct',
  'gen_additions_12mo_mw',
  'curtailment_pct',
  'stranded_capacity_mw',
  'emergency_count_30d',
] as const;

/** One market's DCPI row; its numbers come back null below the plan that opens them (a preview). */
export const DcpiScoreResponse = DcpiScoreRow.extend({
  id: num.optional(),
  queue_capacity_mw: nnum,
  queue_wait_months: nnum,
  reserve_margin_pct: nnum,
  gen_additions_12mo_mw: nnum,
  curtailment_pct: nnum,
  stranded_capacity_mw: nnum,
  emergency_count_30d: nnum,
  top_risks_json: z.array(z.string()).nullable(),
  top_opportunities_json: z.array(z.string()).nullable(),
  tier_required: z.string().optional(),
  published: z.boolean().optional(),
  quality_score: num.optional(),
  avg_kwh_cents: nnum.optional(),
  trend_30d: z.unknown().optional(),
  forecast: Forecast.optional(),
  narrative: z.looseObject({ text: z.string() }).optional(),
  _requested_slug: z.string().optional(),
  _canonical_slug: z.string().optional(),
});
export type DcpiScoreResponseT = z.infer<typeof DcpiScoreResponse>;

/** DCPI orderings and their other names. */
export const DCPI_SORTS = ['excess', 'constraint', 'time_to_power', 'composite'] as const;
export type DcpiSort = (typeof DCPI_SORTS)[number];
const dcpiSortParam = (description: string) =>
  choiceParam(DCPI_SORTS, { description, aliases: { ttp: 'time_to_power', rank: 'composite' } });

export const DcpiScoreListQuery = z.object({
  sort: dcpiSortParam('Order: excess (default), constraint, time_to_power (ttp), composite (rank)'),
  sort_by: dcpiSortParam('Same as sort (sort wins when both are given)'),
  verdict: choiceParam(DCPI_VERDICTS, { description: 'Verdict filter' }),
  iso: optionalString({ maxLength: 20, description: 'Grid operator, e.g. PJM' }),
  state: optionalString({ maxLength: 10, description: 'State or region code' }),
  limit: optionalNumber({ int: true, min: 0, max: 1000, description: 'Rows (0 = all; default all)' }),
});

export const DcpiScoreList = z.looseObject({
  scores: z.array(DcpiScoreRow),
  count: num,
  sort: z.string(),
  filters: z.looseObject({ verdict: z.string().nullable(), iso: z.string().nullable(), state: z.string().nullable() }),
  ...GatedFields,
  _locked_fields: z.array(z.string()).optional(),
});
export type DcpiScoreListT = z.infer<typeof DcpiScoreList>;

export const DcpiLeaderboardQuery = z.object({
  verdict: choiceParam(DCPI_VERDICTS, { description: 'Verdict filter (default: every verdict but LOW_SIGNAL)' }),
  limit: optionalNumber({ int: true, min: 1, max: 100, description: 'Markets to return, 1-100 (default 25)' }),
  format: choiceParam(['json', 'csv'] as const, { description: 'Answer format (default json)', fallback: 'json' }),
});

export const DcpiLeaderboardRow = z.looseObject({
  rank: num,
  market_slug: z.string(),
  market_name: z.string(),
  iso: z.string().nullable(),
  state: z.string().nullable(),
  excess_power_score: nnum,
  constraint_score: nnum,
  quality_score: nnum.optional(),
  time_to_power_months: nnum,
  verdict: z.string(),
  computed_at: z.string(),
  url: z.string(),
  composite_score: nnum,
  reasoning: z.string().optional(),
});

export const DcpiLeaderboard = z.looseObject({
  as_of: z.string(),
  count: num,
  filter: z.looseObject({ verdict: z.string().nullable(), excludes_low_signal: z.boolean() }),
  leaderboard: z.array(DcpiLeaderboardRow),
  methodology_url: z.string(),
  citation: z.string(),
});
export type DcpiLeaderboardT = z.infer<typeof DcpiLeaderboard>;

/** Columns of the leaderboard CSV, in order. */
export const DCPI_LEADERBOARD_CSV_COLUMNS = [
  'rank',
  'market_slug',
  'market_name',
  'iso',
  'state',
  'verdict',
  'excess_power_score',
  'constraint_score',
  'quality_score',
  'computed_at',
  'url',
  'reasoning',
] as const;

// ---------------------------------------------------------------- GET /api/v1/ai-capacity-index

export const AI_CAPACITY_HORIZONS = [30, 60, 90] as const;

export const AiCapacityIndexQuery = z.object({
  horizon: numberChoiceParam(AI_CAPACITY_HORIZONS, { description: 'Days ahead: 30, 60 or 90 (default 90)' }).transform(
    (n) => n ?? 90,
  ),
  limit: optionalNumber({ int: true, min: 1, max: 50, description: 'Markets (default 20, max 50)' }).transform(
    (n) => n ?? 20,
  ),
});

const MwValue = z.looseObject({ value: nnum, band: z.string().optional(), note: z.string().optional() });

export const AiCapacityMarket = z.looseObject({
  rank: num,
  market: z.string(),
  market_slug: z.string().optional(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  deployable_mw: MwValue,
  /** Sep-2026 rows (readers fill a blank one for older answers). */
  ai_ready_mw: MwValue.extend({ basis: z.string() }),
  facility_count: nnum,
  total_installed_mw: nnum,
  total_installed_mw_band: z.string().optional(),
  operator_count: nnum,
  hyperscale_ready: z.boolean(),
  score: nnum,
  score_band: z.string().optional(),
  pipeline_mw: nnum.optional(),
  pipeline_mw_band: z.string().optional(),
  horizon_days: num,
});
export type AiCapacityMarketT = z.infer<typeof AiCapacityMarket>;

export const AiCapacityIndex = z.looseObject({
  index_name: z.string(),
  horizon_days: num,
  computed_at: z.string(),
  methodology: z.string(),
  result_count: num,
  markets: z.array(AiCapacityMarket),
  data_sources: z.array(z.string()).optional(),
  next_refresh: z.string().optional(),
  ...GatedFields,
  _locked_fields: z.array(z.string()).optional(),
});
export type AiCapacityIndexT = z.infer<typeof AiCapacityIndex>;
