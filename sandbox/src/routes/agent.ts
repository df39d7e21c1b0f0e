import { AGENT_FACILITIES_DEFAULT_LIMIT, ErrorBody, ENDPOINTS, type Endpoint } from '@dchub/core';
import type { Context } from 'hono';
import type { SandboxContext } from '../context.js';
import { facilityFull } from '../data/facility-search.js';
import { NEWS_SOURCES } from '../data/news.js';
import { detectCategory, onboarding, publicReceipt, receiptListAnswer, receiptsOf } from '../domain/agent.js';
import { type SandboxEnv } from '../http.js';
import { SYNTHETIC_NOTICE } from '../labels.js';
import { authInstructions } from '../policy/guard.js';
import { callerId } from '../policy/limits.js';
import { DAILY_REQUESTS, type Tier } from '../policy/tiers.js';
import type { RouteRegistry } from '../registry.js';
import { hexId } from '../rng.js';
import { findFacilities } from '../domain/facilities.js';

const AGENT_SOURCE = 'DC Hub Nexus (dchub.cloud) — sandbox, synthetic data';
const BASE = 'https://dchub.cloud';

/** Requests left today for this caller (spec §8.1), after the current one was counted. */
function callsRemaining(ctx: SandboxContext, c: Context<SandboxEnv>, tier: Tier): number {
  const limit = DAILY_REQUESTS[tier];
  return Math.max(0, limit - ctx.counters.used(ctx.clock.nowMs(), `req:${callerId(c, tier)}`));
}

const agentName = (ctx: SandboxContext, c: Context<SandboxEnv>, tier: Tier) =>
  `sandbox-${tier}-agent-${hexId(6, ctx.seed, 'agent', c.req.header('x-api-key') ?? c.req.header('authorization') ?? '')}`;

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

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.agentCapabilities,
    summary: 'Agent description: capabilities, endpoints, auth and discovery files',
    tags: ['Agent'],
    responses: { 200: { description: 'Static agent description' } },
    handler: (c) => {
      const origin = new URL(c.req.url).origin;
      return c.json({
        agent: {
          name: 'DCHubBot',
          platform: 'DC Hub Nexus',
          version: '2.1',
          portal: `${BASE}/agent-portal`,
          environment: 'sandbox',
        },
        capabilities: [
          {
            name: 'facility_search',
            description: 'Search data center facilities by text and country',
            endpoint: ENDPOINTS.agentFacilities.path,
            params: ['q', 'country', 'limit'],
          },
          {
            name: 'market_intelligence',
            description: 'Platform totals and market statistics',
            endpoint: ENDPOINTS.stats.path,
          },
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
        ],
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
      });
    },
  });

  r.add({
    ...ENDPOINTS.agentWhoami,
    summary: 'The calling agent: profile and requests left today, or auth instructions without a key',
    tags: ['Agent'],
    responses: { 200: { description: 'Profile, or `authenticated: false` with auth instructions' } },
    handler: (c) => {
      const tier = c.get('tier');
      if (tier === 'anonymous') {
        return c.json({
          authenticated: false,
          message: 'No API key provided. Send X-API-Key (claim a free key instantly: POST /api/v1/keys/claim).',
          auth_instructions: authInstructions(c),
        });
      }
      const name = agentName(ctx, c, tier);
      return c.json({
        authenticated: true,
        agent: {
          name,
          tier,
          api_calls_remaining: callsRemaining(ctx, c, tier),
          daily_limit: DAILY_REQUESTS[tier],
          is_claimed: true,
          follower_count: 0,
        },
        message: `Welcome, ${name}! You have access to DC Hub data (sandbox).`,
      });
    },
  });

  r.add({
    ...ENDPOINTS.agentFacilities,
    summary: 'Facility search for agents (country is a country name here); works without a key',
    tags: ['Agent'],
    responses: {
      200: { description: 'Matching facilities' },
      400: { description: 'A parameter is invalid', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const tier = c.get('tier');
      const rows = findFacilities(ctx, { q: query.q, countryName: query.country }).slice(
        0,
        query.limit ?? AGENT_FACILITIES_DEFAULT_LIMIT,
      );
      return c.json({
        success: true,
        count: rows.length,
        facilities: rows.map((f) => facilityFull(ctx.seed, f)),
        source: AGENT_SOURCE,
        ...(tier !== 'anonymous'
          ? { authenticated_as: agentName(ctx, c, tier), api_calls_remaining: callsRemaining(ctx, c, tier) }
          : {}),
        note: SYNTHETIC_NOTICE,
      });
    },
  });

  r.add({
    ...ENDPOINTS.agentStats,
    summary: 'Global counts',
    tags: ['Agent'],
    responses: { 200: { description: 'Counts of the inventory' } },
    handler: (c) => {
      const fac = ctx.data.infra.facilities;
      return c.json({
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
        auth_instructions: authInstructions(c),
        note: SYNTHETIC_NOTICE,
      });
    },
  });

  r.add({
    ...ENDPOINTS.onboard,
    summary: 'Onboarding guidance for a kind of client (browse, mcp, connector, rest)',
    tags: ['Agent'],
    responses: {
      200: { description: 'Onboarding guidance' },
      400: { description: 'type is not one of browse, mcp, connector, rest', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const origin = new URL(c.req.url).origin;
      if (query.type) return c.json(onboarding(origin, query.type, 'type param'));
      const detected = detectCategory(c.req.header('user-agent') ?? '');
      return c.json(onboarding(origin, detected ?? 'browse', detected ? 'user-agent' : 'default'));
    },
  });

  r.add({
    ...ENDPOINTS.receipts,
    summary: 'Published model-evaluation runs (receipts)',
    tags: ['Public'],
    responses: { 200: { description: 'The published runs with counts and protocol' } },
    handler: (c) => {
      return c.json(receiptListAnswer(ctx, ctx.clock.nowMs()));
    },
  });

  r.add({
    ...ENDPOINTS.receipt,
    summary: 'One published evaluation run with its full call record',
    tags: ['Public'],
    responses: {
      200: { description: 'The run' },
      400: { description: 'run_id is not an integer', schema: ErrorBody },
      404: { description: 'No published run with this id', schema: ErrorBody },
    },
    handler: (c, { params }) => {
      const id = params.run_id;
      const run = receiptsOf(ctx).find((x) => x.run_id === id && x.publishedMs <= ctx.clock.nowMs());
      if (!run) return c.json({ ok: false, error: 'Receipt not found', run_id: id }, 404);
      return c.json({ ok: true, ...publicReceipt(run) });
    },
  });
}
