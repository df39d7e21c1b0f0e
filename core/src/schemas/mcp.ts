import { z } from 'zod';

/** MCP server at `{base_url}/mcp` (spec §4.6): streamable HTTP, 29 tools. */
export const MCP_PATH = '/mcp';
export const MCP_SERVER_NAME = 'DC Hub Intelligence';
export const MCP_SERVER_VERSION = '2.1.11';

/** The 29 tools of spec §4.6, in catalog order. */
export const MCP_TOOL_NAMES = [
  'search_facilities',
  'get_facility',
  'list_transactions',
  'get_market_intel',
  'get_news',
  'analyze_site',
  'compare_sites',
  'get_intelligence_index',
  'get_pipeline',
  'get_grid_data',
  'get_grid_intelligence',
  'get_energy_prices',
  'get_renewable_energy',
  'get_tax_incentives',
  'get_water_risk',
  'get_infrastructure',
  'get_fiber_intel',
  'get_backup_status',
  'get_agent_registry',
  'semantic_search',
  'get_dchub_recommendation',
  'get_market_dcpi_rank',
  'compare_isos',
  'get_interconnection_queue',
  'rank_markets',
  'find_alternatives',
  'score_facility',
  'ai_capacity_index',
  'hyperscaler_deals',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** Pro-only tools (spec §5.2): a hard wall below Pro. */
export const MCP_PRO_TOOLS: readonly McpToolName[] = [
  'analyze_site',
  'compare_sites',
  'get_grid_intelligence',
  'get_fiber_intel',
];
/** Gated tools (spec §5.2): a preview below their tier. */
export const MCP_GATED_TOOLS: readonly McpToolName[] = [
  'get_intelligence_index',
  'compare_sites',
  'analyze_site',
  'get_infrastructure',
  'get_fiber_intel',
  'get_grid_intelligence',
];

/** Grid operators the grid tools accept (ISONE spelling, as the tools take it). */
export const MCP_GRID_ISOS = ['ERCOT', 'PJM', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISONE'] as const;
export const RANK_MARKETS_CRITERIA = [
  'cheapest_power',
  'most_capacity',
  'most_operators',
  'fastest_growing',
  'best_overall',
  'ai_ready',
] as const;
export const RANK_MARKETS_REGIONS = ['global', 'us', 'canada', 'eu', 'apac', 'americas'] as const;
export const SCORE_FACILITY_WEIGHTINGS = ['balanced', 'power_priority', 'risk_priority', 'expansion_priority'] as const;
export const DEAL_REGIONS = ['us', 'eu', 'apac', 'americas'] as const;

const str = (description: string) => z.string().max(200).describe(description).optional();
const num = (description: string) => z.number().describe(description).optional();
const lat = () => z.number().min(-90).max(90).describe('Latitude, decimal degrees').optional();
const lon = () => z.number().min(-180).max(180).describe('Longitude, decimal degrees').optional();
const limit = (max = 500, def = 10) =>
  z.number().int().min(1).max(max).describe(`Rows to return (1-${max}, default ${def})`).optional();
const offset = () => z.number().int().min(0).max(100_000).describe('Rows to skip').optional();
const bool = (description: string) => z.boolean().describe(description).optional();
const idOrNumber = (description: string) =>
  z
    .union([z.string().max(100), z.number().int()])
    .describe(description)
    .optional();

/** Input schema of every tool (reference notes §3.2); required parameters are not optional. */
export const McpToolInputs = {
  search_facilities: z.object({
    query: str('Free text: city, provider, market or facility name'),
    country: str('Country, ISO 3166-1 alpha-2 (e.g. US, DE)'),
    state: str('US state code'),
    city: str('City'),
    operator: str('Operator / provider name'),
    min_capacity_mw: num('Minimum facility power, MW'),
    max_capacity_mw: num('Maximum facility power, MW'),
    limit: limit(100, 10),
    offset: offset(),
  }),
  get_facility: z.object({
    facility_id: idOrNumber('Facility id (one of facility_id, id, slug or name is required)'),
    id: idOrNumber('Alias of facility_id'),
    slug: str('Facility slug'),
    name: str('Facility name'),
    include_nearby: bool('Include nearby facilities (default true)'),
    include_power: bool('Include power context (default true)'),
  }),
  list_transactions: z.object({
    buyer: str('Buyer name (substring)'),
    seller: str('Seller name (substring)'),
    deal_type: str('acquisition, investment, joint_venture, lease, development, merger'),
    date_from: str('YYYY-MM-DD'),
    date_to: str('YYYY-MM-DD'),
    region: z.enum(DEAL_REGIONS).describe('Region').optional(),
    min_value_usd: num('Minimum deal value, USD'),
    max_value_usd: num('Maximum deal value, USD'),
    limit: limit(100, 20),
    offset: offset(),
  }),
  get_market_intel: z.object({
    market: str('Market slug or name (e.g. northern-virginia); omit for the market list'),
    metric: str('Metric of interest'),
    period: str('Period of interest'),
    compare_to: str('Second market to compare with'),
  }),
  get_news: z.object({
    query: str('Text to look for in titles and summaries'),
    category: str('deals, permits, outages, policy, AI, ...'),
    source: str('Publisher'),
    date_from: str('YYYY-MM-DD'),
    date_to: str('YYYY-MM-DD'),
    limit: limit(100, 10),
    min_relevance: z.number().min(0).max(1).describe('Minimum relevance 0-1').optional(),
  }),
  analyze_site: z.object({
    lat: lat(),
    lon: lon(),
    location: str('Market name or slug, resolved to its published centroid (instead of lat/lon)'),
    candidate_id: str('Candidate id from the refined queue'),
    state: str('US state code'),
    capacity_mw: z.number().positive().describe('Target load, MW').optional(),
    include_grid: bool('Include grid context (default true)'),
    include_risk: bool('Include risk (default true)'),
    include_fiber: bool('Include fiber (default true)'),
  }),
  compare_sites: z.object({
    locations: str('"lat,lon;lat,lon" — 2 to 4 locations'),
    sites: z
      .array(
        z.object({
          lat: z.number().min(-90).max(90),
          lon: z.number().min(-180).max(180).optional(),
          lng: z.number().min(-180).max(180).optional(),
          name: z.string().optional(),
        }),
      )
      .min(2)
      .max(4)
      .describe('2-4 sites {lat, lon|lng}')
      .optional(),
    capacity_mw: z.number().positive().describe('Target load, MW').optional(),
  }),
  get_intelligence_index: z.object({}),
  get_pipeline: z.object({
    status: z.enum(['announced', 'permitted', 'construction', 'operational']).describe('Project status').optional(),
    country: str('Country, ISO-2'),
    operator: str('Operator name'),
    expected_completion_before: str('YYYY-MM-DD'),
    min_capacity_mw: num('Minimum capacity, MW'),
    limit: limit(100, 20),
    offset: offset(),
  }),
  get_grid_data: z.object({
    iso: z.enum(MCP_GRID_ISOS).describe('Grid operator').optional(),
    metric: str('fuel_mix, demand, ...'),
    period: str('Period'),
  }),
  get_grid_intelligence: z.object({
    region_id: str('Region id: ercot, pjm, miso-spp, ... (one of region_id, iso, region, market is required)'),
    iso: str('Grid operator'),
    region: str('Region name'),
    market: str('Market slug'),
  }),
  get_energy_prices: z.object({
    data_type: str('retail, wholesale, gas, summary'),
    state: str('US state code'),
    iso: str('Grid operator'),
  }),
  get_renewable_energy: z.object({
    energy_type: z.enum(['solar', 'wind', 'combined']).describe('Energy type (default combined)').optional(),
    state: str('US state code'),
    lat: lat(),
    lon: lon(),
  }),
  get_tax_incentives: z.object({ state: str('US state code (e.g. VA)') }),
  get_water_risk: z.object({
    lat: lat(),
    lon: lon(),
    lng: lon(),
    state: str('US state code'),
    county: str('County name'),
  }),
  get_infrastructure: z.object({
    lat: lat(),
    lon: lon(),
    radius_km: z.number().positive().max(500).describe('Search radius, km (default 50)').optional(),
    min_voltage_kv: num('Minimum substation voltage, kV'),
    layer: z.enum(['substations', 'transmission', 'pipelines', 'power_plants']).describe('One layer only').optional(),
    limit: limit(500, 10),
  }),
  get_fiber_intel: z.object({
    carrier: str('Carrier name'),
    route_type: z.enum(['metro', 'longhaul', 'dark', 'ix']).describe('Route type').optional(),
    market: str('Market slug'),
    include_sources: bool('Include source notes'),
  }),
  get_backup_status: z.object({}),
  get_agent_registry: z.object({}),
  semantic_search: z.object({
    query: z.string().min(1).max(500).describe('Natural-language question'),
    topK: z.number().int().min(1).max(50).describe('Results to return (default 5)').optional(),
  }),
  get_dchub_recommendation: z.object({ context: str('general, investment, site-selection or technical') }),
  get_market_dcpi_rank: z.object({
    market_slug: z.string().min(1).max(100).describe('Market slug, e.g. northern-virginia'),
  }),
  compare_isos: z.object({
    isos: z.string().min(1).max(100).describe('Comma-separated, 2-4 of PJM, ERCOT, CAISO, MISO, SPP, NYISO, ISONE'),
  }),
  get_interconnection_queue: z.object({
    iso: z.enum(MCP_GRID_ISOS).describe('Drill down into one ISO (omit for all)').optional(),
  }),
  rank_markets: z.object({
    criteria: z.enum(RANK_MARKETS_CRITERIA).describe('Ranking criteria (default best_overall)').optional(),
    region: z.enum(RANK_MARKETS_REGIONS).describe('Region (default us)').optional(),
    limit: limit(50, 10),
    min_capacity_mw: num('Minimum operational MW of a market'),
  }),
  find_alternatives: z.object({
    facility_id: z.union([z.string().min(1).max(100), z.number().int()]).describe('Target facility id'),
    radius_km: z.number().positive().max(5000).describe('Search radius, km (default 50)').optional(),
    match_on: str('all, power, operator, market (default all)'),
    exclude_operator: bool('Exclude the target facility operator (default false)'),
    limit: limit(50, 5),
  }),
  score_facility: z.object({
    facility_id: z.union([z.string().min(1).max(100), z.number().int()]).describe('Facility id'),
    weighting: z.enum(SCORE_FACILITY_WEIGHTINGS).describe('Weighting mode (default balanced)').optional(),
  }),
  ai_capacity_index: z.object({
    horizon: z
      .union([z.literal(30), z.literal(60), z.literal(90)])
      .describe('Horizon in days: 30, 60 or 90 (default 90)')
      .optional(),
    limit: limit(500, 20),
  }),
  hyperscaler_deals: z.object({
    buyer: str('Buyer (substring), e.g. Microsoft'),
    min_value_usd: z.number().min(0).describe('Minimum value, USD (floor 1e9)').optional(),
    region: z.enum(DEAL_REGIONS).describe('Region').optional(),
    limit: limit(200, 20),
  }),
} as const satisfies Record<McpToolName, z.ZodObject>;

export type McpToolInput<N extends McpToolName> = z.infer<(typeof McpToolInputs)[N]>;

/** A tool call result (MCP `CallToolResult`). */
export const McpToolResult = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

/** The hard wall below Pro on Pro-only tools. */
export const McpProWall = z.looseObject({
  error: z.literal('pro_required'),
  tool: z.string(),
  _gated: z.literal(true),
  _wall: z.literal(true),
  required_plan: z.literal('pro'),
  current_plan: z.string(),
  upgrade_url: z.string(),
});

/** Markers of a keyless answer whose list was cut to the anonymous cap. */
export const McpAnonCap = z.looseObject({
  preview_is_partial: z.literal(true),
  _results_withheld: z.number().int(),
  _results_field: z.string(),
});

export type McpToolResultT = z.infer<typeof McpToolResult>;
