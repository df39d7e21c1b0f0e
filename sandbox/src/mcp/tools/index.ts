/** The 29 tools of spec §4.6: descriptions, tiers, main lists and handlers. */
import { MCP_TOOL_NAMES, type McpToolName } from '@dchub/core';
import { dayIso, dayNumber } from '../../clock.js';
import { ToolError, labels, lc, mainList, replaceList, restJson, type ToolDef, type ToolEnv, type ToolResult } from './common.js';
import { findAlternatives, getFacility, scoreFacility, searchFacilities } from './facilities.js';
import {
  compareIsos, dcpiRankFromData, energyPricesSummary, findMetro, intelligenceIndex, intelligenceIndexPreview,
  interconnectionQueue, rankMarkets, recommendation,
} from './markets.js';
import { analyzeSite, compareSites, fiberIntel, infrastructure, infrastructurePreview, renewableEnergy, taxIncentives, waterRisk } from './sites.js';

const qs = (params: Record<string, unknown>) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
};

/** A REST list answer narrowed by the tool's own filters, with offset/limit applied. */
function narrow(body: Record<string, unknown>, keep: (row: Record<string, unknown>) => boolean, limit: number, offset = 0): ToolResult {
  const key = mainList(body, 'auto');
  if (!key) return body;
  const rows = (body[key] as Array<Record<string, unknown>>).filter((r) => r && typeof r === 'object' && keep(r));
  return { ...replaceList(body, key, rows.slice(offset, offset + limit)), count: Math.min(limit, Math.max(0, rows.length - offset)), total_matching: rows.length };
}

const field = (r: Record<string, unknown>, ...names: string[]) => {
  for (const n of names) if (r[n] !== undefined && r[n] !== null) return r[n];
  return undefined;
};
/** Deal value in USD from whichever field the record carries (`value_usd`, or `value` in millions). */
const dealUsd = (r: Record<string, unknown>): number | null => {
  const usd = field(r, 'value_usd', 'deal_value_usd');
  if (typeof usd === 'number') return usd;
  const v = field(r, 'value', 'value_millions', 'deal_value');
  return typeof v === 'number' ? (v < 1e6 ? v * 1e6 : v) : null;
};
/** Tool region (us, eu, apac, americas) against a record's country/region labels. */
const inRegion = (r: Record<string, unknown>, region: unknown): boolean => {
  if (!region) return true;
  const label = lc(field(r, 'region'));
  const country = String(field(r, 'country') ?? '').toUpperCase();
  switch (region) {
    case 'us': return country === 'US' || country === 'USA' || label === 'us';
    case 'eu': return /europe|\beu\b|emea/.test(label);
    case 'apac': return /asia|pacific|apac/.test(label);
    case 'americas': return /america/.test(label) || ['US', 'CA', 'MX', 'BR', 'CL', 'AR', 'CO'].includes(country);
    default: return label === lc(region);
  }
};
const dateOf = (r: Record<string, unknown>) => String(field(r, 'date', 'published_at', 'published', 'announced_date') ?? '').slice(0, 10);

async function transactions(env: ToolEnv, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return restJson(env, `/api/v1/transactions${qs({ limit: 500, buyer: args.buyer, seller: args.seller, deal_type: args.deal_type })}`);
}

const REGION_ID: Record<string, string> = { ERCOT: 'ercot', PJM: 'pjm', MISO: 'miso-spp', SPP: 'miso-spp', CAISO: 'caiso', NYISO: 'nyiso', ISONE: 'isone', 'ISO-NE': 'isone' };

const TOOLS: ToolDef[] = [
  {
    name: 'search_facilities',
    description: 'Search the data center facility inventory (170+ countries) by text, country, state, city, operator and capacity.',
    list: 'facilities',
    run: searchFacilities,
  },
  {
    name: 'get_facility',
    description: 'One facility by id (or slug/name): operator, location, power, status, nearby facilities and power context.',
    list: 'nearby',
    run: getFacility,
  },
  {
    name: 'list_transactions',
    description: 'M&A and investment transactions: buyer, seller, type, value, date, market.',
    list: 'auto',
    run: async (args, env) => {
      const body = await transactions(env, args);
      const from = args.date_from as string | undefined;
      const to = args.date_to as string | undefined;
      return narrow(
        body,
        (r) => {
          const usd = dealUsd(r);
          const d = dateOf(r);
          return (
            inRegion(r, args.region) &&
            (args.min_value_usd === undefined || (usd !== null && usd >= (args.min_value_usd as number))) &&
            (args.max_value_usd === undefined || (usd !== null && usd <= (args.max_value_usd as number))) &&
            (!from || d >= from) && (!to || d <= to)
          );
        },
        (args.limit as number | undefined) ?? 20,
        (args.offset as number | undefined) ?? 0,
      );
    },
  },
  {
    name: 'get_market_intel',
    description: 'Market statistics, status mix, top providers, recent facilities and pricing for one market (or the market list).',
    list: 'auto',
    run: async (args, env) => {
      if (args.compare_to) return restJson(env, `/api/v1/markets/compare${qs({ markets: `${String(args.market ?? '')},${String(args.compare_to)}` })}`);
      if (!args.market) return restJson(env, '/api/v1/markets/list');
      return restJson(env, `/api/v1/markets/${encodeURIComponent(String(args.market))}`);
    },
  },
  {
    name: 'get_news',
    description: 'Industry news from 40+ sources, refreshed every 5 minutes.',
    list: 'auto',
    run: async (args, env) => {
      const body = await restJson(env, `/api/news${qs({ limit: 200 })}`);
      const q = lc(args.query);
      return narrow(
        body,
        (r) =>
          (!q || `${lc(r.title)} ${lc(field(r, 'summary', 'description'))}`.includes(q)) &&
          (!args.category || lc(field(r, 'category')).includes(lc(args.category))) &&
          (!args.source || lc(field(r, 'source', 'publisher')).includes(lc(args.source))) &&
          (!args.date_from || dateOf(r) >= String(args.date_from)) &&
          (!args.date_to || dateOf(r) <= String(args.date_to)) &&
          (args.min_relevance === undefined || typeof r.relevance !== 'number' || r.relevance >= (args.min_relevance as number)),
        (args.limit as number | undefined) ?? 10,
      );
    },
  },
  {
    name: 'analyze_site',
    description: 'Site score 0-100 of a location (lat/lon or a market name): power, gas, fiber, market and risk sub-scores, nearby infrastructure. Pro.',
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
    description: 'Composite market health index across all scored markets, with percentile, 7d/30d trend and components.',
    requires: { tier: 'free', mode: 'preview' },
    run: intelligenceIndex,
    preview: intelligenceIndexPreview,
  },
  {
    name: 'get_pipeline',
    description: 'Facilities under construction or announced.',
    list: 'auto',
    run: async (args, env) => {
      const body = await restJson(env, '/api/v1/pipeline');
      const before = args.expected_completion_before as string | undefined;
      return narrow(
        body,
        (r) =>
          (!args.status || lc(field(r, 'status')).includes(lc(args.status))) &&
          (!args.country || lc(field(r, 'country')) === lc(args.country)) &&
          (!args.operator || lc(field(r, 'operator', 'company', 'provider')).includes(lc(args.operator))) &&
          (args.min_capacity_mw === undefined || Number(field(r, 'capacity_mw', 'capacity', 'power_mw', 'mw') ?? -1) >= (args.min_capacity_mw as number)) &&
          (!before || String(field(r, 'expected_commissioning', 'expected_completion', 'delivery', 'eta') ?? '9999') <= before),
        (args.limit as number | undefined) ?? 20,
        (args.offset as number | undefined) ?? 0,
      );
    },
  },
  {
    name: 'get_grid_data',
    description: 'Real-time grid fuel mix of one ISO (ERCOT, PJM, MISO, CAISO, SPP, NYISO, ISONE).',
    run: async (args, env) => {
      const iso = (args.iso as string | undefined) ?? 'ERCOT';
      const body = await restJson(env, `/api/grid/fuel-mix${qs({ iso })}`);
      return { iso, metric: args.metric ?? 'fuel_mix', ...body };
    },
  },
  {
    name: 'get_grid_intelligence',
    description: 'Grid region intelligence: demand, fuel mix, queue depth, DCPI excess/constraint, time to power, reserve margin. Pro.',
    requires: { tier: 'pro', mode: 'wall' },
    run: async (args, env) => {
      let id = (args.region_id ?? args.region) as string | undefined;
      if (!id && args.iso) id = REGION_ID[String(args.iso).toUpperCase()] ?? String(args.iso).toLowerCase();
      if (!id && args.market) {
        const m = findMetro(args.market);
        id = m ? (REGION_ID[m.iso] ?? m.iso.toLowerCase()) : undefined;
      }
      if (!id) {
        throw new ToolError({ error: 'region required', hint: 'Pass region_id, iso, region or market.', valid_regions: ['ercot', 'pjm', 'miso-spp', 'caiso', 'nyiso', 'isone'], example: { region_id: 'ercot' } });
      }
      return restJson(env, `/api/v1/grid-intelligence/${encodeURIComponent(id.toLowerCase())}`);
    },
  },
  {
    name: 'get_energy_prices',
    description: 'Electricity prices: retail by state (same data as /api/energy/prices/{state}), wholesale, natural gas, grid status.',
    run: async (args, env) => {
      const summary = energyPricesSummary(args, env);
      if (!summary.state) return summary;
      const { status, body } = await env.rest(`/api/energy/prices/${summary.state as string}`);
      return status === 200 && body && typeof body === 'object' ? { ...summary, retail: body } : summary;
    },
  },
  {
    name: 'get_renewable_energy',
    description: 'Renewable capacity (solar, wind) by state or location, top projects and the state RPS target.',
    list: 'top_projects',
    run: renewableEnergy,
  },
  { name: 'get_tax_incentives', description: 'Data center tax incentive programs of a US state.', list: 'programs', run: taxIncentives },
  { name: 'get_water_risk', description: 'Water stress score 0-100, drought category D0-D4, 12-month outlook and cooling-water assessment.', run: waterRisk },
  {
    name: 'get_infrastructure',
    description: 'Nearby substations (count, max kV), transmission over 69 kV, gas pipelines and power plants with distances.',
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
        { feed: 'facilities', record_count: d.infra.facilities.length, refresh_interval: '24h', last_refreshed: `${dayIso(dayNumber(now))}T02:00:00.000Z` },
        { feed: 'interconnection_queue', record_count: d.queue.length, refresh_interval: '7d', last_refreshed: iso(0).slice(0, 10) },
        { feed: 'dcpi_scores', record_count: d.dcpi(dayNumber(now)).length, refresh_interval: '24h (06:00 UTC)', last_refreshed: iso(0).slice(0, 10) },
        { feed: 'news', record_count: null, refresh_interval: '5m', last_refreshed: iso((now % 300_000)) },
        { feed: 'grid_fuel_mix', record_count: 7, refresh_interval: '5m', last_refreshed: iso((now % 300_000)) },
        { feed: 'energy_prices', record_count: 51, refresh_interval: '30d', last_refreshed: iso(0).slice(0, 10) },
        { feed: 'transactions', record_count: null, refresh_interval: '24h', last_refreshed: iso(0).slice(0, 10) },
      ].map((f) => ({ ...f, health: 'healthy', scheduler: 'sandbox' }));
      return { success: true, feeds, summary: { healthy: feeds.length, stale: 0, error: 0, unknown: 0, total_feeds: feeds.length, overall_health: 'healthy' }, ...labels() };
    },
  },
  {
    name: 'get_agent_registry',
    description: 'AI platforms connected to DC Hub (MCP status, recommended tools, tier).',
    list: 'platforms',
    run: () => ({
      success: true,
      platforms: [
        { platform: 'Claude', status: 'mcp_active', recommended_tools: ['get_market_dcpi_rank', 'get_interconnection_queue', 'analyze_site'], tier: 'free' },
        { platform: 'ChatGPT', status: 'mcp_active', recommended_tools: ['rank_markets', 'search_facilities'], tier: 'free' },
        { platform: 'Cursor', status: 'mcp_active', recommended_tools: ['semantic_search', 'get_facility'], tier: 'free' },
        { platform: 'Gemini', status: 'mcp_ready', recommended_tools: ['get_news', 'list_transactions'], tier: 'free' },
        { platform: 'Copilot', status: 'mcp_ready', recommended_tools: ['compare_isos', 'get_grid_data'], tier: 'free' },
      ],
      as_of: null,
      ...labels(),
    }),
  },
  {
    name: 'semantic_search',
    description: 'Natural-language facility search (same index as POST /api/v1/search/semantic).',
    list: 'auto',
    run: (args, env) =>
      restJson(env, '/api/v1/search/semantic', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: args.query, topK: args.topK ?? 5 }) }),
  },
  { name: 'get_dchub_recommendation', description: 'Recommendation text about DC Hub for sharing, matched to a context category.', run: recommendation },
  {
    name: 'get_market_dcpi_rank',
    description: 'Power-readiness index (DCPI) of one market: verdict BUILD/CAUTION/AVOID, composite, excess power, constraint, time to power.',
    run: async (args, env) => {
      const slug = String(args.market_slug).trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
      const { status, body } = await env.rest(`/api/v1/dcpi/scores/${encodeURIComponent(slug)}`);
      if (status === 200 && body && typeof body === 'object') return body as ToolResult;
      const b = body as Record<string, unknown> | null;
      if (status === 404 && b && typeof b.error === 'string' && !b.error.startsWith('not_found: no endpoint')) throw new ToolError({ ...b, error: b.error });
      return dcpiRankFromData({ market_slug: slug }, env);
    },
  },
  { name: 'compare_isos', description: 'Compare 2-4 ISO regions: demand, generation mix, constraint, time to power, queue depth, retail price.', run: compareIsos },
  {
    name: 'get_interconnection_queue',
    description: 'Interconnection-queue snapshot of seven US ISOs, or one ISO\'s active projects (iso).',
    list: 'projects',
    run: interconnectionQueue,
  },
  { name: 'rank_markets', description: 'Top markets by criteria (cheapest_power, most_capacity, most_operators, fastest_growing, best_overall, ai_ready) in a region.', list: 'results', run: rankMarkets },
  { name: 'find_alternatives', description: 'Facilities similar to a target facility, with similarity_score, match_reasons and key_differences.', list: 'results', run: findAlternatives },
  {
    name: 'score_facility',
    description: 'Facility score 0-100 over 7 dimensions (power, fiber, water, climate_risk, tax_environment, talent_pool, expansion) with tier classification and peer comparison.',
    run: scoreFacility,
  },
  {
    name: 'ai_capacity_index',
    description: 'Markets ranked by AI-ready deployable MW (same data as /api/v1/ai-capacity-index).',
    list: 'auto',
    run: (args, env) => restJson(env, `/api/v1/ai-capacity-index${qs({ horizon: args.horizon, limit: args.limit })}`),
  },
  {
    name: 'hyperscaler_deals',
    description: 'Deals of $1B or more in a rolling 180-day window, filtered by buyer, minimum value and region.',
    list: 'deals',
    run: async (args, env) => {
      const body = await transactions(env, { buyer: args.buyer });
      const key = mainList(body, 'auto');
      const rows = key ? (body[key] as Array<Record<string, unknown>>) : [];
      const floor = Math.max(1e9, (args.min_value_usd as number | undefined) ?? 0);
      const since = dayIso(dayNumber(env.nowMs) - 180);
      const deals = rows.filter(
        (r) =>
          (dealUsd(r) ?? 0) >= floor &&
          (r.category === undefined || r.category === 'hyperscaler' || r.category === 'ai') &&
          dateOf(r) >= since &&
          (!args.buyer || lc(field(r, 'buyer')).includes(lc(args.buyer))) &&
          inRegion(r, args.region),
      );
      const limit = (args.limit as number | undefined) ?? 20;
      return { success: true, window_days: 180, since, min_value_usd: floor, total: deals.length, deals: deals.slice(0, limit).map((r) => ({ ...r, value_usd: dealUsd(r) })), ...labels() };
    },
  },
];

export const TOOL_BY_NAME: ReadonlyMap<McpToolName, ToolDef> = new Map(TOOLS.map((t) => [t.name, t]));

// The catalog must hold exactly the 29 tools of the spec.
if (TOOLS.length !== MCP_TOOL_NAMES.length || MCP_TOOL_NAMES.some((n) => !TOOL_BY_NAME.has(n))) {
  throw new Error('MCP tool catalog does not match MCP_TOOL_NAMES');
}

export const TOOL_LIST: readonly ToolDef[] = MCP_TOOL_NAMES.map((n) => TOOL_BY_NAME.get(n)!);
