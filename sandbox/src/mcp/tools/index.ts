/** The 29 tools of spec §4.6: descriptions, tiers, main lists and handlers. */
import { MCP_TOOL_NAMES, type McpToolName } from '@dchub/core';
import { dayIso, dayNumber } from '../../clock.js';
import { resolveMarket } from '../../data/market-extras.js';
import { scoringDay } from '../../data/markets.js';
import { aiCapacityAnswer } from '../../domain/ai-capacity.js';
import { dcpiMarketAnswer } from '../../domain/dcpi.js';
import { semanticSearchAnswer } from '../../domain/facilities.js';
import { ToolError, labels, type ToolDef } from './common.js';
import { findAlternatives, getFacility, scoreFacility, searchFacilities } from './facilities.js';
import { getNews, getPipeline, hyperscalerDeals, listTransactions } from './feeds.js';
import { energyPrices, gridData, gridIntelligence } from './grid.js';
import { marketIntel } from './intel.js';
import {
  compareIsos,
  intelligenceIndex,
  intelligenceIndexPreview,
  interconnectionQueue,
  rankMarkets,
  recommendation,
} from './markets.js';
import { fiberIntel, infrastructure, infrastructurePreview } from './infrastructure.js';
import { analyzeSite, compareSites, renewableEnergy, taxIncentives, waterRisk } from './sites.js';

const TOOLS: ToolDef[] = [
  {
    name: 'search_facilities',
    description:
      'Search the data center facility inventory (170+ countries) by text, country, state, city, operator and capacity.',
    list: 'facilities',
    run: searchFacilities,
  },
  {
    name: 'get_facility',
    description:
      'One facility by id (or slug/name): operator, location, power, status, nearby facilities and power context.',
    list: 'nearby',
    run: getFacility,
  },
  {
    name: 'list_transactions',
    description: 'M&A and investment transactions: buyer, seller, type, value, date, market.',
    list: 'auto',
    run: listTransactions,
  },
  {
    name: 'get_market_intel',
    description:
      'One market (metric: overview, facilities, capacity, providers, status, recent, pricing, dcpi; period: 7d, 30d, 90d, 1y, all), the market list, or a comparison (compare_to).',
    list: 'auto',
    run: marketIntel,
  },
  {
    name: 'get_news',
    description: 'Industry news from 40+ sources, refreshed every 5 minutes.',
    list: 'auto',
    run: getNews,
  },
  {
    name: 'analyze_site',
    description:
      'Site score 0-100 of a location (lat/lon or a market name): power, gas, fiber, market and risk sub-scores, nearby infrastructure. Pro.',
    requires: { tier: 'pro', mode: 'wall' },
    run: analyzeSite,
  },
  {
    name: 'compare_sites',
    description: 'Compare 2-4 locations side by side with site scores and a recommended winner. Pro.',
    requires: { tier: 'pro', mode: 'wall' },
    list: 'sites',
    run: compareSites,
  },
  {
    name: 'get_intelligence_index',
    description:
      'Composite market health index across all scored markets, with percentile, 7d/30d trend and components.',
    requires: { tier: 'free', mode: 'preview' },
    run: intelligenceIndex,
    preview: intelligenceIndexPreview,
  },
  {
    name: 'get_pipeline',
    description: 'Facilities under construction or announced.',
    list: 'auto',
    run: getPipeline,
  },
  {
    name: 'get_grid_data',
    description:
      'Grid data of one ISO (ERCOT, PJM, MISO, CAISO, SPP, NYISO, ISONE): metric fuel_mix (default), demand or renewables; period current (default) or 24h.',
    run: gridData,
  },
  {
    name: 'get_grid_intelligence',
    description:
      'Grid region intelligence: demand, fuel mix, queue depth, DCPI excess/constraint, time to power, reserve margin. Pro.',
    requires: { tier: 'pro', mode: 'wall' },
    run: gridIntelligence,
  },
  {
    name: 'get_energy_prices',
    description:
      'Electricity prices by data_type: summary (default), retail (by state, as /api/energy/prices/{state}), wholesale or gas.',
    run: energyPrices,
  },
  {
    name: 'get_renewable_energy',
    description: 'Renewable capacity (solar, wind) by state or location, top projects and the state RPS target.',
    list: 'top_projects',
    run: renewableEnergy,
  },
  {
    name: 'get_tax_incentives',
    description: 'Data center tax incentive programs of a US state.',
    list: 'programs',
    run: taxIncentives,
  },
  {
    name: 'get_water_risk',
    description: 'Water stress score 0-100, drought category D0-D4, 12-month outlook and cooling-water assessment.',
    run: waterRisk,
  },
  {
    name: 'get_infrastructure',
    description:
      'Nearby substations (count, max kV), transmission over 69 kV, gas pipelines and power plants with distances.',
    requires: { tier: 'free', mode: 'preview' },
    run: infrastructure,
    preview: infrastructurePreview,
  },
  {
    name: 'get_fiber_intel',
    description: 'Fiber routes (GeoJSON) by carrier, route type and market: fiber count, lit capacity, distance. Pro.',
    requires: { tier: 'pro', mode: 'wall' },
    list: 'features',
    run: fiberIntel,
  },
  {
    name: 'get_backup_status',
    description: 'Freshness of every data feed: health, record counts, refresh intervals.',
    list: 'feeds',
    run: (_args, env) => {
      const d = env.ctx.data;
      const now = env.nowMs;
      const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
      const feeds = [
        {
          feed: 'facilities',
          record_count: d.infra.facilities.length,
          refresh_interval: '24h',
          last_refreshed: `${dayIso(dayNumber(now))}T02:00:00.000Z`,
        },
        {
          feed: 'interconnection_queue',
          record_count: d.queue.length,
          refresh_interval: '7d',
          last_refreshed: iso(0).slice(0, 10),
        },
        {
          feed: 'dcpi_scores',
          record_count: d.dcpi(dayNumber(now)).length,
          refresh_interval: '24h (06:00 UTC)',
          last_refreshed: iso(0).slice(0, 10),
        },
        { feed: 'news', record_count: null, refresh_interval: '5m', last_refreshed: iso(now % 300_000) },
        { feed: 'grid_fuel_mix', record_count: 7, refresh_interval: '5m', last_refreshed: iso(now % 300_000) },
        { feed: 'energy_prices', record_count: 51, refresh_interval: '30d', last_refreshed: iso(0).slice(0, 10) },
        { feed: 'transactions', record_count: null, refresh_interval: '24h', last_refreshed: iso(0).slice(0, 10) },
      ].map((f) => ({ ...f, health: 'healthy', scheduler: 'sandbox' }));
      return {
        success: true,
        feeds,
        summary: {
          healthy: feeds.length,
          stale: 0,
          error: 0,
          unknown: 0,
          total_feeds: feeds.length,
          overall_health: 'healthy',
        },
        ...labels(),
      };
    },
  },
  {
    name: 'get_agent_registry',
    description: 'AI platforms connected to DC Hub (MCP status, recommended tools, tier).',
    list: 'platforms',
    run: () => ({
      success: true,
      platforms: [
        {
          platform: 'Claude',
          status: 'mcp_active',
          recommended_tools: ['get_market_dcpi_rank', 'get_interconnection_queue', 'analyze_site'],
          tier: 'free',
        },
        {
          platform: 'ChatGPT',
          status: 'mcp_active',
          recommended_tools: ['rank_markets', 'search_facilities'],
          tier: 'free',
        },
        {
          platform: 'Cursor',
          status: 'mcp_active',
          recommended_tools: ['semantic_search', 'get_facility'],
          tier: 'free',
        },
        { platform: 'Gemini', status: 'mcp_ready', recommended_tools: ['get_news', 'list_transactions'], tier: 'free' },
        {
          platform: 'Copilot',
          status: 'mcp_ready',
          recommended_tools: ['compare_isos', 'get_grid_data'],
          tier: 'free',
        },
      ],
      as_of: null,
      ...labels(),
    }),
  },
  {
    name: 'semantic_search',
    description: 'Natural-language facility search (same index as POST /api/v1/search/semantic).',
    list: 'auto',
    run: (args, env) => semanticSearchAnswer(env.ctx, args.query as string, (args.topK as number | undefined) ?? 5),
  },
  {
    name: 'get_dchub_recommendation',
    description: 'Recommendation text about DC Hub for sharing, matched to a context category.',
    run: recommendation,
  },
  {
    name: 'get_market_dcpi_rank',
    description:
      'Power-readiness index (DCPI) of one market: verdict BUILD/CAUTION/AVOID, composite, excess power, constraint, time to power.',
    run: (args, env) => {
      const slug = String(args.market_slug)
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      const res = resolveMarket(slug);
      if (!res) throw new ToolError({ error: 'market not found', slug });
      return dcpiMarketAnswer(env.ctx, res, false);
    },
  },
  {
    name: 'compare_isos',
    description:
      'Compare 2-4 ISO regions: demand, generation mix, constraint, time to power, queue depth, retail price.',
    run: compareIsos,
  },
  {
    name: 'get_interconnection_queue',
    description: "Interconnection-queue snapshot of seven US ISOs, or one ISO's active projects (iso).",
    list: 'projects',
    run: interconnectionQueue,
  },
  {
    name: 'rank_markets',
    description:
      'Top markets by criteria (cheapest_power, most_capacity, most_operators, fastest_growing, best_overall, ai_ready) in a region.',
    list: 'results',
    run: rankMarkets,
  },
  {
    name: 'find_alternatives',
    description: 'Facilities similar to a target facility, with similarity_score, match_reasons and key_differences.',
    list: 'results',
    run: findAlternatives,
  },
  {
    name: 'score_facility',
    description:
      'Facility score 0-100 over 7 dimensions (power, fiber, water, climate_risk, tax_environment, talent_pool, expansion) with tier classification and peer comparison.',
    run: scoreFacility,
  },
  {
    name: 'ai_capacity_index',
    description: 'Markets ranked by AI-ready deployable MW (same data as /api/v1/ai-capacity-index).',
    list: 'auto',
    run: (args, env) =>
      aiCapacityAnswer(
        env.ctx,
        scoringDay(env.nowMs),
        (args.horizon as number | undefined) ?? 90,
        (args.limit as number | undefined) ?? 20,
        false,
      ),
  },
  {
    name: 'hyperscaler_deals',
    description: 'Deals of $1B or more in a rolling 180-day window, filtered by buyer, minimum value and region.',
    list: 'deals',
    run: hyperscalerDeals,
  },
];

export const TOOL_BY_NAME: ReadonlyMap<McpToolName, ToolDef> = new Map(TOOLS.map((t) => [t.name, t]));

// The catalog must hold exactly the 29 tools of the spec.
if (TOOLS.length !== MCP_TOOL_NAMES.length || MCP_TOOL_NAMES.some((n) => !TOOL_BY_NAME.has(n))) {
  throw new Error('MCP tool catalog does not match MCP_TOOL_NAMES');
}

export const TOOL_LIST: readonly ToolDef[] = MCP_TOOL_NAMES.map((n) => TOOL_BY_NAME.get(n)!);
