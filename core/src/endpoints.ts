import { z } from 'zod';
import {
  AgentCapabilities,
  AgentFacilities,
  AgentFacilitiesQuery,
  AgentStats,
  AgentWhoami,
  KeyClaimAnswer,
  KeyClaimRequest,
  Onboard,
  OnboardQuery,
  ReceiptDetail,
  ReceiptList,
  SemanticSearchBody,
  SemanticSearchResult,
} from './schemas/agent.js';
import {
  BriefDiffQuery,
  BriefPageQuery,
  MarketBriefAll,
  MarketBriefDiff,
  MarketBriefResponse,
} from './schemas/briefs.js';
import { EnergyPrices, FuelMix, FuelMixQuery, GridIntelligence, GridRegionDetail } from './schemas/energy.js';
import { FacilityDetail, FacilitySearch, FacilitySearchQuery } from './schemas/facilities.js';
import {
  NewsList,
  NewsQuery,
  PipelineQuery,
  PipelineResponse,
  TransactionList,
  TransactionsQuery,
} from './schemas/feeds.js';
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
} from './schemas/markets.js';
import { idParam } from './schemas/params.js';
import { ParcelAnalysis, ParcelRequest } from './schemas/parcel.js';
import { QueueFilters, QueueResult } from './schemas/queue.js';
import { RankedSites, RankSitesRequest } from './schemas/ranking.js';
import { SiteScore, SiteScoreQuery } from './schemas/sites.js';

/**
 * One endpoint of the DC Hub interface, written once: method, path (`:name` marks a path
 * parameter), the schemas of its path parameters, query and body, and of its answer. Core's calls
 * use the paths; the sandbox's route registry serves and documents each endpoint from the same object.
 */
export interface Endpoint {
  method: 'get' | 'post';
  path: string;
  /** Further paths answering the same way. */
  aliases?: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Schema of the 200 answer (JSON); absent for text answers (CSV). */
  response?: z.ZodType;
}

const endpoint = <const E extends Endpoint>(e: E): E => e;

/** A text path segment (a slug, a state, a region id). */
const segment = (description: string) => z.string().min(1).meta({ description });

export const ENDPOINTS = {
  health: endpoint({ method: 'get', path: '/api/health' }),
  siteScore: endpoint({ method: 'get', path: '/api/site-score', query: SiteScoreQuery, response: SiteScore }),
  queue: endpoint({
    method: 'get',
    path: '/api/v1/interconnection-queue/refined',
    query: QueueFilters,
    response: QueueResult,
  }),
  rankSites: endpoint({ method: 'post', path: '/api/v1/rank-sites', body: RankSitesRequest, response: RankedSites }),
  analyzeParcel: endpoint({
    method: 'post',
    path: '/api/v1/analyze-parcel',
    body: ParcelRequest,
    response: ParcelAnalysis,
  }),

  stats: endpoint({ method: 'get', path: '/api/v1/stats', response: PlatformStats }),
  marketList: endpoint({ method: 'get', path: '/api/v1/markets/list', response: MarketList }),
  markets: endpoint({ method: 'get', path: '/api/v1/markets', response: MarketList }),
  marketCompare: endpoint({
    method: 'get',
    path: '/api/v1/markets/compare',
    query: MarketCompareQuery,
    response: MarketCompare,
  }),
  market: endpoint({
    method: 'get',
    path: '/api/v1/markets/:market_name',
    params: z.object({ market_name: segment('Market slug or name (case-insensitive; hyphens and spaces are equal)') }),
    response: MarketDetail,
  }),
  dcpiScores: endpoint({
    method: 'get',
    path: '/api/v1/dcpi/scores',
    query: DcpiScoreListQuery,
    response: DcpiScoreList,
  }),
  dcpiMarket: endpoint({
    method: 'get',
    path: '/api/v1/dcpi/scores/:market_slug',
    params: z.object({ market_slug: segment('Market slug (aliases such as nova, dfw, sv are accepted)') }),
    response: DcpiScoreResponse,
  }),
  dcpiLeaderboard: endpoint({
    method: 'get',
    path: '/api/v1/dcpi/leaderboard',
    query: DcpiLeaderboardQuery,
    response: DcpiLeaderboard,
  }),
  aiCapacityIndex: endpoint({
    method: 'get',
    path: '/api/v1/ai-capacity-index',
    query: AiCapacityIndexQuery,
    response: AiCapacityIndex,
  }),

  briefsCsv: endpoint({ method: 'get', path: '/api/v1/market-brief/all.csv', query: BriefPageQuery }),
  briefsAll: endpoint({
    method: 'get',
    path: '/api/v1/market-brief/all',
    query: BriefPageQuery,
    response: MarketBriefAll,
  }),
  briefsDiff: endpoint({
    method: 'get',
    path: '/api/v1/market-brief/diff',
    query: BriefDiffQuery,
    response: MarketBriefDiff,
  }),
  brief: endpoint({
    method: 'get',
    path: '/api/v1/market-brief/:slug',
    params: z.object({ slug: segment('Market slug or alias (nova, dfw, sv, nyc, ...)') }),
    response: MarketBriefResponse,
  }),

  facilities: endpoint({
    method: 'get',
    path: '/api/v1/facilities',
    query: FacilitySearchQuery,
    response: FacilitySearch,
  }),
  facilityDetail: endpoint({
    method: 'get',
    path: '/api/v1/facilities/detail/:facility_id',
    params: z.object({ facility_id: idParam('Facility id (a positive whole number)') }),
    response: FacilityDetail,
  }),
  semanticSearch: endpoint({
    method: 'post',
    path: '/api/v1/search/semantic',
    body: SemanticSearchBody,
    response: SemanticSearchResult,
  }),

  news: endpoint({ method: 'get', path: '/api/news', query: NewsQuery, response: NewsList }),
  newsListing: endpoint({
    method: 'get',
    path: '/api/v1/news',
    aliases: ['/api/news/live', '/api/agent/news', '/api/news-feed'],
    query: NewsQuery,
    response: NewsList,
  }),
  transactions: endpoint({
    method: 'get',
    path: '/api/v1/transactions',
    query: TransactionsQuery,
    response: TransactionList,
  }),
  deals: endpoint({
    method: 'get',
    path: '/api/v1/deals',
    aliases: ['/api/deals'],
    query: TransactionsQuery,
    response: TransactionList,
  }),
  pipeline: endpoint({ method: 'get', path: '/api/v1/pipeline', query: PipelineQuery, response: PipelineResponse }),

  fuelMix: endpoint({ method: 'get', path: '/api/grid/fuel-mix', query: FuelMixQuery, response: FuelMix }),
  energyPrices: endpoint({
    method: 'get',
    path: '/api/energy/prices/:state',
    params: z.object({ state: segment('US state code or name, any case (TX, texas, DC, New York)') }),
    response: EnergyPrices,
  }),
  gridIntelligence: endpoint({ method: 'get', path: '/api/v1/grid-intelligence', response: GridIntelligence }),
  gridRegion: endpoint({
    method: 'get',
    path: '/api/v1/grid-intelligence/:region_id',
    params: z.object({ region_id: segment('ercot, pjm, miso-spp, caiso or nyiso-isone') }),
    response: GridRegionDetail,
  }),

  agentCapabilities: endpoint({ method: 'get', path: '/api/agent/capabilities', response: AgentCapabilities }),
  agentWhoami: endpoint({ method: 'get', path: '/api/agent/whoami', response: AgentWhoami }),
  agentFacilities: endpoint({
    method: 'get',
    path: '/api/agent/facilities',
    query: AgentFacilitiesQuery,
    response: AgentFacilities,
  }),
  agentStats: endpoint({ method: 'get', path: '/api/agent/stats', response: AgentStats }),
  onboard: endpoint({ method: 'get', path: '/api/v1/onboard', query: OnboardQuery, response: Onboard }),
  receipts: endpoint({ method: 'get', path: '/api/v1/receipts', response: ReceiptList }),
  receipt: endpoint({
    method: 'get',
    path: '/api/v1/receipts/:run_id',
    params: z.object({ run_id: idParam('Run id (a positive whole number)') }),
    response: ReceiptDetail,
  }),
  keyClaim: endpoint({ method: 'post', path: '/api/v1/keys/claim', body: KeyClaimRequest, response: KeyClaimAnswer }),
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

/**
 * The path of an endpoint with its `:name` parameters filled in. Segments are given URI-encoded
 * (the argument checks of the calls encode them); a segment holding a `/` is refused.
 */
export function endpointPath(e: Endpoint, params: Record<string, string | number> = {}): string {
  return e.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || String(v).includes('/')) throw new Error(`endpointPath: ${e.path} needs an encoded ${name}`);
    return String(v);
  });
}
