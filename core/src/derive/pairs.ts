import { ENDPOINTS } from '../endpoints.js';
import { readBriefsAll } from '../read/briefs.js';
import type { MarketBriefAllT } from '../schemas/briefs.js';
import { DcpiScoreList, type DcpiScoreListT } from '../schemas/markets.js';
import type { ListItemPair } from './items.js';

export const DCPI_SCORES_PATH = ENDPOINTS.dcpiScores.path;
export const BRIEFS_ALL_PATH = ENDPOINTS.briefsAll.path;

/** Members of a DCPI list row, the same as the single-market endpoint's (notes §2.5, §2.6: one stored row). */
export const DCPI_LIST_FIELDS = [
  'market_slug',
  'market_name',
  'state',
  'iso',
  'latitude',
  'longitude',
  'constraint_score',
  'excess_power_score',
  'time_to_power_months',
  'verdict',
  'top_risks_json',
  'top_opportunities_json',
  'computed_at',
  'composite_score',
] as const;

/**
 * The paid numerics: masked in the list below a paid plan, and in the single answer below Developer (notes §2.5, §2.6).
 */
export const DCPI_PAID_FIELDS = [
  'composite_score',
  'excess_power_score',
  'constraint_score',
  'time_to_power_months',
  'top_risks_json',
  'top_opportunities_json',
];
const NUMERICS_FROM = new Set(['developer', 'pro', 'founding', 'enterprise', 'research_seed', 'admin', 'internal']);

/** GET /api/v1/dcpi/scores answers DCPI(slug[, field]) for the markets it holds. */
export const DCPI_FROM_SCORES: ListItemPair = {
  listPath: DCPI_SCORES_PATH,
  listSchema: DcpiScoreList,
  widenQuery: '',
  keyField: 'market_slug',
  rows: (list) => (list as DcpiScoreListT).scores,
  // A paid numeric shown in the list may still be null in the single answer below Developer: only
  // a tier the service confirmed at Developer or above takes them from the list.
  mayCarry: (field, tier) =>
    (DCPI_LIST_FIELDS as readonly string[]).includes(field) &&
    (!DCPI_PAID_FIELDS.includes(field) || (tier !== undefined && NUMERICS_FROM.has(tier))),
  withholds: (list, row, field) =>
    ((list as DcpiScoreListT)._locked_fields?.includes(field) ?? false) ||
    (row.locked === true && DCPI_PAID_FIELDS.includes(field)),
};

/** Sections of a brief in an /all page, the same as the single brief's for the same caller (notes §2.29). */
export const BRIEF_LIST_SECTIONS = [
  'slug',
  'hero',
  'live_as_of',
  'kpis',
  'outlook',
  'power_grid',
  'pipeline',
  'operators',
  'ma',
  'comps',
  'risk',
  'paywall',
];

/** A GET /api/v1/market-brief/all page answers BRIEF(slug, field) for the briefs it holds. */
export const BRIEF_FROM_ALL: ListItemPair = {
  listPath: BRIEFS_ALL_PATH,
  listSchema: readBriefsAll,
  widenQuery: '',
  keyField: 'slug',
  rows: (list) => (list as MarketBriefAllT).briefs,
  mayCarry: (field) => BRIEF_LIST_SECTIONS.includes(field.split('.')[0]),
  // A section below the caller's tier is null or empty in both answers alike; null is never served.
  withholds: (list) => (list as { _locked_fields?: unknown })._locked_fields !== undefined,
};
