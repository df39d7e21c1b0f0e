import { z } from 'zod';
import { ValidationError } from '../errors.js';
import { readAiCapacity, readDcpiLeaderboard, readDcpiScore, readMarketList, readStats } from '../read/markets.js';
import { pathRequest, resource, searchParamsOf } from '../resource.js';
import {
  AiCapacityIndex,
  AiCapacityIndexQuery,
  DcpiLeaderboard,
  DcpiLeaderboardQuery,
  DcpiScoreList,
  DcpiScoreListQuery,
  DcpiScoreResponse,
  MarketCompare,
  MarketCompareQuery,
  MarketDetail,
  MarketList,
  PlatformStats,
} from '../schemas/markets.js';
import { segment } from '../schemas/params.js';
import { latestTime } from '../table.js';
import { parseParams } from '../validate.js';
import { slugArg } from './segments.js';

export const DCPI_CITATION = 'DC Hub Power Index (DCPI), DC Hub, dchub.cloud, CC-BY-4.0';

/** The columns of the markets list, as every host shows them. */
export const MARKET_LIST_COLUMNS = [
  'slug',
  'id',
  'name',
  'state',
  'country',
  'facility_count',
  'total_power_mw',
  'pipeline_mw_total',
  'avg_kwh_price_usd',
] as const;

/** The columns of the DCPI scores list, coordinates included (the markets map and the quadrant draw from them). */
export const DCPI_SCORE_COLUMNS = [
  'market_slug', 'market_name', 'state', 'iso', 'latitude', 'longitude', 'verdict', 'composite_score', 'excess_power_score',
  'constraint_score', 'time_to_power_months', 'computed_at',
] as const; // prettier-ignore

/** The columns of the DCPI leaderboard. */
export const LEADERBOARD_COLUMNS = [
  'rank', 'market_slug', 'market_name', 'iso', 'state', 'verdict', 'composite_score', 'excess_power_score', 'constraint_score',
  'time_to_power_months', 'computed_at',
] as const; // prettier-ignore

const AI_CAPACITY_COLUMNS = [
  'rank', 'market', 'city', 'state', 'country', 'ai_ready_mw', 'deployable_mw', 'hyperscale_ready', 'facility_count',
  'operator_count', 'total_installed_mw', 'score',
] as const; // prettier-ignore

/** A megawatt figure or, where the service gives only a band, the band. */
const mwOrBand = (v: { value?: number | null; band?: string } | undefined): number | string | null =>
  v?.value ?? v?.band ?? null;

const marketList = {
  reader: readMarketList,
  table: { rows: (m: z.output<typeof MarketList>) => m.data, columns: MARKET_LIST_COLUMNS, open: true },
  note: (m: z.output<typeof MarketList>) =>
    m.locked ? `${m.locked} more markets with a higher tier${m.upsell ? `: ${m.upsell}` : ''}` : undefined,
};

export const MARKET_ENDPOINTS = {
  /** Platform totals. */
  stats: resource({ method: 'get', path: '/api/v1/stats', response: PlatformStats }, { reader: readStats }),
  /** Scored markets of the caller's tier. */
  marketList: resource({ method: 'get', path: '/api/v1/markets/list', response: MarketList }, marketList),
  markets: resource({ method: 'get', path: '/api/v1/markets', response: MarketList }, marketList),
  /** 2-4 markets side by side. */
  marketCompare: resource(
    { method: 'get', path: '/api/v1/markets/compare', query: MarketCompareQuery, response: MarketCompare },
    {
      request: ({ markets }, e) => {
        const given: unknown = markets;
        const list = (typeof given === 'string' ? given.split(',') : Array.isArray(given) ? given.map(String) : [])
          .map((s) => s.trim())
          .filter(Boolean);
        if (list.length < 2 || list.length > 4)
          throw new ValidationError('markets', `give 2 to 4 markets, got ${list.length}`);
        const parsed = parseParams(MarketCompareQuery, { markets: list.join(',') });
        return { path: e.path, params: searchParamsOf({ markets: parsed.markets }), parsed };
      },
      table: {
        rows: (c) =>
          c.comparison.map((m) => ({
            market: m.market,
            display_name: m.display_name,
            ...m.metrics,
            top_providers: (m.top_providers as string[] | undefined)?.join(', '),
          })),
        columns: ['market', 'display_name'],
        open: true,
      },
    },
  ),
  /** One market by slug or name. */
  market: resource(
    {
      method: 'get',
      path: '/api/v1/markets/:market_name',
      params: z.object({
        market_name: segment('Market slug or name (case-insensitive; hyphens and spaces are equal)'),
      }),
      response: MarketDetail,
    },
    { request: pathRequest((_, v) => slugArg('name', v)) },
  ),
  /** Every market's DCPI (numbers masked below a paid plan). */
  dcpiScores: resource(
    { method: 'get', path: '/api/v1/dcpi/scores', query: DcpiScoreListQuery, response: DcpiScoreList },
    {
      request: (input, e) => {
        const f = parseParams(DcpiScoreListQuery, input ?? {});
        const params = searchParamsOf({
          sort: f.sort ?? f.sort_by,
          verdict: f.verdict,
          iso: f.iso,
          state: f.state,
          limit: f.limit,
        });
        return { path: e.path, params, parsed: f };
      },
      table: { rows: (l) => l.scores, columns: DCPI_SCORE_COLUMNS, open: true },
      citation: () => DCPI_CITATION,
      asOf: (l) => latestTime(l.scores.map((r) => r.computed_at)),
    },
  ),
  /** Power-readiness scores and verdict of one market. */
  dcpiMarket: resource(
    {
      method: 'get',
      path: '/api/v1/dcpi/scores/:market_slug',
      params: z.object({ market_slug: segment('Market slug (aliases such as nova, dfw, sv are accepted)') }),
      response: DcpiScoreResponse,
    },
    {
      reader: readDcpiScore,
      request: pathRequest((_, v) => slugArg('slug', v)),
      citation: () => DCPI_CITATION,
      asOf: (s) => s.computed_at ?? undefined,
    },
  ),
  dcpiLeaderboard: resource(
    { method: 'get', path: '/api/v1/dcpi/leaderboard', query: DcpiLeaderboardQuery, response: DcpiLeaderboard },
    {
      reader: readDcpiLeaderboard,
      request: (input, e) => {
        const f = parseParams(DcpiLeaderboardQuery, input ?? {});
        return { path: e.path, params: searchParamsOf({ verdict: f.verdict, limit: f.limit }), parsed: f };
      },
      table: { rows: (l) => l.leaderboard, columns: LEADERBOARD_COLUMNS, open: true },
      citation: (l) => (typeof l.citation === 'string' && l.citation ? l.citation : DCPI_CITATION),
      asOf: (l) => l.as_of,
    },
  ),
  /** The AI capacity index (horizon 30, 60 or 90 days). */
  aiCapacityIndex: resource(
    { method: 'get', path: '/api/v1/ai-capacity-index', query: AiCapacityIndexQuery, response: AiCapacityIndex },
    {
      reader: readAiCapacity,
      table: {
        rows: (a) =>
          a.markets.map((m) => ({
            ...m,
            deployable_mw: mwOrBand(m.deployable_mw),
            ai_ready_mw: mwOrBand(m.ai_ready_mw),
          })),
        columns: AI_CAPACITY_COLUMNS,
        open: true,
      },
      asOf: (a) => (a as { computed_at?: string }).computed_at,
    },
  ),
};
