import { ONBOARD_TYPES } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { RECEIPT_PROTOCOL, generateReceipts, type ReceiptRecord } from '../data/receipts.js';
import { SYNTHETIC_NOTICE } from '../labels.js';

const BASE = 'https://dchub.cloud';

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
