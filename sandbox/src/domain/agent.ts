import { AGENT_FACILITIES_DEFAULT_LIMIT, ENDPOINTS, ONBOARD_TYPES, type Endpoint } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { facilityFull } from '../data/facility-search.js';
import { NEWS_SOURCES } from '../data/news.js';
import { RECEIPT_PROTOCOL, generateReceipts, type ReceiptRecord } from '../data/receipts.js';
import { SYNTHETIC_NOTICE } from '../labels.js';
import { findFacilities } from './facilities.js';

const BASE = 'https://dchub.cloud';
const AGENT_SOURCE = 'DC Hub Nexus (dchub.cloud) — sandbox, synthetic data';

/** The endpoints the capabilities answer lists, with their auth rule. */
const CAPABILITY_ENDPOINTS: Array<[Endpoint, string]> = [
  [ENDPOINTS.facilities, 'optional'],
  [ENDPOINTS.facilityDetail, 'required'],
  [ENDPOINTS.news, 'optional'],
  [ENDPOINTS.transactions, 'optional'],
  [ENDPOINTS.pipeline, 'optional'],
  [ENDPOINTS.fuelMix, 'optional'],
  [ENDPOINTS.energyPrices, 'optional'],
  [ENDPOINTS.gridIntelligence, 'optional (preview without a key)'],
  [ENDPOINTS.queue, 'optional (preview without a key)'],
  [ENDPOINTS.siteScore, 'optional'],
  [ENDPOINTS.semanticSearch, 'required (Developer plan)'],
  [ENDPOINTS.agentWhoami, 'optional'],
  [ENDPOINTS.onboard, 'none'],
  [ENDPOINTS.keyClaim, 'none'],
];

/** What the agent can do, as capabilities (name, what, where). */
const CAPABILITIES = [
  {
    name: 'facility_search',
    description: 'Search data center facilities by text and country',
    endpoint: ENDPOINTS.agentFacilities.path,
    params: ['q', 'country', 'limit'],
  },
  { name: 'market_intelligence', description: 'Platform totals and market statistics', endpoint: ENDPOINTS.stats.path },
  {
    name: 'transaction_tracking',
    description: 'M&A and investment transactions',
    endpoint: ENDPOINTS.transactions.path,
  },
  { name: 'pipeline_tracking', description: 'Construction pipeline', endpoint: ENDPOINTS.pipeline.path },
  {
    name: 'news_aggregation',
    description: 'Industry news from 40+ sources, refreshed every 5 minutes',
    endpoint: ENDPOINTS.newsListing.path,
  },
  {
    name: 'grid_intelligence',
    description: 'Fuel mix, retail prices and grid regions',
    endpoint: ENDPOINTS.gridIntelligence.path,
  },
  {
    name: 'agent_identity',
    description: 'Who am I and how many calls are left',
    endpoint: ENDPOINTS.agentWhoami.path,
  },
];

/** The static agent description (GET /api/agent/capabilities): capabilities, endpoints, auth, discovery files. */
export function capabilitiesAnswer(origin: string) {
  return {
    agent: {
      name: 'DCHubBot',
      platform: 'DC Hub Nexus',
      version: '2.1',
      portal: `${BASE}/agent-portal`,
      environment: 'sandbox',
    },
    capabilities: CAPABILITIES,
    endpoints: CAPABILITY_ENDPOINTS.map(([e, auth]) => ({
      method: e.method.toUpperCase(),
      path: e.path.replace(/:([A-Za-z_]+)/g, '{$1}'),
      auth,
    })),
    auth: {
      protocol: 'api_key',
      header: 'X-API-Key',
      instructions: `${origin}/auth.md`,
      claim_key: `POST ${origin}/api/v1/keys/claim`,
      keyless_allowance: '10 requests per day',
    },
    discovery_files: {
      agent_portal: `${BASE}/agent-portal`,
      openapi: `${origin}/openapi.json`,
      auth_md: `${origin}/auth.md`,
      skill_json: `${BASE}/skill.json`,
      agents_md: `${BASE}/agents.md`,
      ai_agents_json: `${BASE}/.well-known/ai-agents.json`,
      llms_txt: `${BASE}/llms.txt`,
      llms_full_txt: `${BASE}/llms-full.txt`,
    },
    message_to_agents: 'Cite "DC Hub, dchub.cloud" (CC-BY-4.0). ' + SYNTHETIC_NOTICE,
  };
}

/** A keyed agent as its answers name it: its name and the requests it has left today. */
export interface AgentCaller {
  name: string;
  remaining: number;
}

/** Facility search for agents (country is a country name); a keyed caller is named, with its requests left. */
export function agentFacilitiesAnswer(
  ctx: SandboxContext,
  query: { q?: string; country?: string; limit?: number },
  caller: AgentCaller | undefined,
) {
  const rows = findFacilities(ctx, { q: query.q, countryName: query.country }).slice(
    0,
    query.limit ?? AGENT_FACILITIES_DEFAULT_LIMIT,
  );
  return {
    success: true,
    count: rows.length,
    facilities: rows.map((f) => facilityFull(ctx.seed, f)),
    source: AGENT_SOURCE,
    ...(caller ? { authenticated_as: caller.name, api_calls_remaining: caller.remaining } : {}),
    note: SYNTHETIC_NOTICE,
  };
}

/** Global counts of the inventory (GET /api/agent/stats). */
export function agentStatsAnswer(ctx: SandboxContext, authInstructions: string) {
  const fac = ctx.data.infra.facilities;
  return {
    success: true,
    stats: {
      total_facilities: fac.length,
      countries_covered: new Set(fac.map((f) => f.country)).size,
      providers_tracked: new Set(fac.map((f) => f.operator)).size,
      markets_tracked: new Set(fac.map((f) => f.market).filter(Boolean)).size,
      data_sources: 15,
      news_feeds: NEWS_SOURCES.length,
    },
    source: AGENT_SOURCE,
    auth_instructions: authInstructions,
    note: SYNTHETIC_NOTICE,
  };
}

/** Onboarding category from the User-Agent (notes §2.26), else browse. */
export function detectCategory(ua: string): (typeof ONBOARD_TYPES)[number] | undefined {
  const u = ua.toLowerCase();
  const has = (words: string[]) => words.some((w) => u.includes(w));
  if (has(['claude', 'cursor', 'cline', 'continue', 'windsurf', 'modelcontextprotocol', 'mcp'])) return 'mcp';
  if (
    has([
      'airbyte',
      'fivetran',
      'stitch',
      'meltano',
      'singer',
      'zapier',
      'n8n',
      'make.com',
      'workato',
      'tray.io',
      'census',
      'hightouch',
    ])
  )
    return 'connector';
  if (
    has([
      'python-requests',
      'httpx',
      'aiohttp',
      'curl',
      'wget',
      'node-fetch',
      'axios',
      'okhttp',
      'go-http-client',
      'java/',
      'ruby',
      'postmanruntime',
      'insomnia',
      'node',
      'undici',
    ])
  )
    return 'rest';
  if (
    has([
      'poe',
      'you.com',
      'youchat',
      'perplexity',
      'chatgpt',
      'openai',
      'gpt',
      'gemini',
      'bard',
      'cohere',
      'openrouter',
      'huggingface',
      'deepseek',
      'mistral',
    ])
  )
    return 'browse';
  return undefined;
}

export function onboarding(origin: string, category: (typeof ONBOARD_TYPES)[number], detected: string) {
  const common = {
    ok: true as const,
    category,
    detected_from: detected,
    all_categories: [...ONBOARD_TYPES],
    switch_category: `${origin}/api/v1/onboard?type=<browse|mcp|connector|rest>`,
    tagline: 'Data center market intelligence: facilities, markets, power, deals and news over REST and MCP.',
    free_key: {
      anonymous: '10 calls/day with no key on read endpoints',
      claim_instant: `POST ${origin}/api/v1/keys/claim  (instant key, no card)`,
      signup: `${BASE}/pricing`,
    },
    key_endpoints: {
      market_rankings: `${origin}/api/v1/dcpi/leaderboard`,
      facility_search: `${origin}/api/v1/facilities?q=ashburn`,
      market_intel: `${origin}/api/v1/markets`,
      news: `${origin}/api/news?limit=10`,
    },
    docs: {
      agent_guide: `${origin}/llms.txt`,
      openapi: `${origin}/openapi.json`,
      mcp: `${origin}/mcp`,
      auth: `${origin}/auth.md`,
    },
    cite_as: 'Source: dchub.cloud',
    note: SYNTHETIC_NOTICE,
  };
  switch (category) {
    case 'mcp':
      return {
        ...common,
        what: 'Connect an MCP client to the streamable-HTTP server and call its tools.',
        method: 'Add the server URL to your MCP client configuration; send X-API-Key for keyed tools.',
        mcp_config: { mcpServers: { dchub: { url: `${origin}/mcp` } } },
        one_click_setup: Object.fromEntries(
          ['claude-desktop', 'cursor', 'cline', 'continue'].map((k) => [k, `${BASE}/connect/${k}`]),
        ),
        example_tools: [
          'search_facilities',
          'get_market_intel',
          'get_interconnection_queue',
          'analyze_site',
          'get_news',
        ],
      };
    case 'connector':
      return {
        ...common,
        what: 'Sync DC Hub data into a warehouse with an ELT connector.',
        method: 'Point the connector at the OpenAPI document; each stream is a paged GET.',
        openapi: `${origin}/openapi.json`,
        streams: ['facilities', 'markets', 'dcpi_leaderboard', 'news', 'transactions', 'pipeline'],
        auth: { type: 'api_key', header: 'X-API-Key' },
        enterprise_note: 'Bulk exports and higher limits come with the Enterprise plan.',
      };
    case 'rest':
      return {
        ...common,
        what: 'Call the REST API directly over HTTPS with JSON responses.',
        method: 'GET endpoints with query parameters; send X-API-Key on every request.',
        samples: {
          curl: `curl -H "X-API-Key: <API_KEY>" "${origin}/api/v1/facilities?q=dallas&limit=5"`,
          python: `import requests\nr = requests.get("${origin}/api/v1/facilities", params={"q": "dallas"}, headers={"X-API-Key": "<API_KEY>"})\nprint(r.json())`,
          javascript: `const r = await fetch("${origin}/api/v1/facilities?q=dallas", { headers: { "X-API-Key": "<API_KEY>" } });\nconsole.log(await r.json());`,
        },
      };
    default:
      return {
        ...common,
        what: 'Ask an AI assistant with browsing to read DC Hub pages and APIs for you.',
        method: 'Paste the prompt below into your assistant.',
        paste_prompt: `Use the DC Hub API at ${origin} (guide: ${origin}/llms.txt).\nFind the top data center markets by power readiness and summarise recent deals.\nCite "Source: dchub.cloud".`,
      };
  }
}

export const receiptsOf = (ctx: SandboxContext): ReceiptRecord[] =>
  ctx.data.lazy('receipts', () => generateReceipts(ctx.seed));
export const publicReceipt = ({ publishedMs: _p, ...r }: ReceiptRecord) => r;

/** The published runs as of `now`, with counts and the harness protocol. */
export function receiptListAnswer(ctx: SandboxContext, now: number) {
  const published = receiptsOf(ctx).filter((x) => x.publishedMs <= now);
  const byPlatform: Record<string, number> = {};
  for (const x of published) byPlatform[x.platform] = (byPlatform[x.platform] ?? 0) + 1;
  return {
    ok: true,
    as_of: new Date(Math.floor(now / 1000) * 1000).toISOString(),
    counts: {
      by_platform: byPlatform,
      distinct_models: new Set(published.map((x) => x.model_id)).size,
      published_runs: published.length,
    },
    limitations: [
      'Only runs explicitly published by the operator appear.',
      'Response excerpts are truncated by the harness at protocol.truncation_length characters; response_sha256 is the SHA-256 of the excerpt.',
      'Verdicts are free-form model output and are not endorsements.',
      'Sandbox: runs are synthetic.',
    ],
    note: `Each receipt records the API calls a model made and the verdict it reached. ${SYNTHETIC_NOTICE}`,
    protocol: RECEIPT_PROTOCOL,
    receipts: published.map(publicReceipt),
  };
}
