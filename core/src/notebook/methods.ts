import type { z } from 'zod';
import { DCPI_CITATION } from '../briefs.js';
import { CHAIN_METRICS } from '../chain.js';
import { ENDPOINTS, type Endpoint, type EndpointName } from '../endpoints.js';
import { LEADERBOARD_COLUMNS } from '../markets.js';
import { QUEUE_COLUMNS } from '../queue.js';
import { MCP_DAILY_CALLS, PLAN_TIERS, REST_DAILY_REQUESTS } from '../plans.js';
import { BRIEF_CSV_COLUMNS, VERDICTS } from '../schemas/briefs.js';
import { FUEL_MIX_ISOS } from '../schemas/energy.js';
import { DEAL_TYPES, PIPELINE_STATUSES } from '../schemas/feeds.js';
import { MCP_TOOL_NAMES } from '../schemas/mcp.js';
import { QUEUE_ISOS, QUEUE_PREDICATES } from '../schemas/queue.js';
import type { NotebookAnswer } from './answer.js';
import type { MethodContext } from './context.js';
import { deals, facilities, fuelMix, gridRegions, news, pipeline, prices, receipts } from './feeds.js';
import { brief, briefs, briefsDiff, dcpi, dcpiScores, market, markets } from './markets.js';
import { chain, parcel, queue, rank, siteScoreAnswer } from './sites.js';
import { tool } from './tools.js';

/**
 * A notebook method: its arguments (the Python API's names, in order), what it answers, and the
 * endpoint whose input schema types its arguments when one does (`members`: an argument's name in
 * that schema when it differs), for the Python API's signatures.
 */
export interface NotebookMethod {
  args: readonly string[];
  run(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer>;
  endpoint?: EndpointName;
  members?: Readonly<Record<string, string>>;
}

const method = (
  args: readonly string[],
  run: NotebookMethod['run'],
  endpoint?: EndpointName,
  members?: Readonly<Record<string, string>>,
): NotebookMethod => ({ args, run, ...(endpoint ? { endpoint } : {}), ...(members ? { members } : {}) });

/**
 * Every call of the Python API, by name: one per `dchub` command, answering typed frames. The
 * Python API's signatures name the same arguments (a test holds the two together).
 */
export const NOTEBOOK_METHODS: Readonly<Record<string, NotebookMethod>> = {
  queue: method(QUEUE_PREDICATES, queue, 'queue'),
  site_score: method(['lat', 'lon', 'capacity_mw', 'state'], siteScoreAnswer, 'siteScore'),
  rank: method(['candidates', 'objectives', 'constraints', 'mode', 'top_k'], rank, 'rankSites'),
  chain: method(
    ['objectives', 'iso', 'min_mw', 'max_ttp_months', 'constraints', 'mode', 'top_k', 'max_sites', 'budget'],
    chain,
  ),
  parcel: method(['geometry', 'capacity_mw'], parcel, 'analyzeParcel'),
  briefs: method(['limit', 'offset'], briefs, 'briefsAll'),
  briefs_diff: method(['since'], briefsDiff, 'briefsDiff'),
  brief: method(['slug', 'fields'], brief, 'brief'),
  dcpi: method(['market', 'fields', 'verdict', 'limit'], dcpi, 'dcpiLeaderboard'),
  dcpi_scores: method(['verdict', 'iso', 'state', 'sort', 'limit'], dcpiScores, 'dcpiScores'),
  markets: method([], markets, 'marketList'),
  market: method(['name'], market, 'market', { name: 'market_name' }),
  facilities: method(['query', 'country', 'limit', 'market', 'state', 'status'], facilities, 'facilities', {
    query: 'q',
  }),
  news: method(['limit', 'query', 'category', 'source'], news, 'news'),
  deals: method(['limit', 'deal_type', 'year', 'buyer', 'seller'], deals, 'transactions'),
  pipeline: method(['status', 'market', 'company', 'limit'], pipeline, 'pipeline'),
  fuel_mix: method(['iso'], fuelMix, 'fuelMix'),
  prices: method(['state'], prices, 'energyPrices'),
  grid_regions: method([], gridRegions, 'gridIntelligence'),
  receipts: method([], receipts, 'receipts'),
  tool: method(['name', 'args'], tool),
};

/**
 * The schema of what a method's endpoint takes (its `input`, query, body or path parameters), whose
 * members type the method's arguments (`NotebookMethod.members` names those named otherwise).
 */
export function notebookInputSchema(name: string): z.ZodType | undefined {
  const m = NOTEBOOK_METHODS[name];
  if (!m?.endpoint) return undefined;
  const e: Endpoint = ENDPOINTS[m.endpoint];
  return e.input ?? e.query ?? e.body ?? e.params;
}

/** The names hosts show or check against, from core's own tables (never copied into a host). */
export function describeNotebook(version: string): Record<string, unknown> {
  return {
    version,
    methods: Object.fromEntries(Object.entries(NOTEBOOK_METHODS).map(([k, m]) => [k, [...m.args]])),
    queue_isos: [...QUEUE_ISOS],
    queue_predicates: [...QUEUE_PREDICATES],
    queue_columns: [...QUEUE_COLUMNS],
    brief_columns: [...BRIEF_CSV_COLUMNS],
    leaderboard_columns: [...LEADERBOARD_COLUMNS],
    chain_metrics: [...CHAIN_METRICS],
    verdicts: [...VERDICTS],
    fuel_mix_isos: [...FUEL_MIX_ISOS],
    deal_types: [...DEAL_TYPES],
    pipeline_statuses: [...PIPELINE_STATUSES],
    tools: [...MCP_TOOL_NAMES],
    tiers: Object.fromEntries(
      PLAN_TIERS.map((t) => [
        t,
        { rest_calls_per_day: finite(REST_DAILY_REQUESTS[t]), mcp_calls_per_day: finite(MCP_DAILY_CALLS[t]) },
      ]),
    ),
    dcpi_citation: DCPI_CITATION,
  };
}

/** JSON has no Infinity: an unlimited allowance is null. */
const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);
