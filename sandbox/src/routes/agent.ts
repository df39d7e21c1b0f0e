import { ErrorBody, ENDPOINTS } from '@dchub/core';
import type { Context } from 'hono';
import type { SandboxContext } from '../context.js';
import {
  agentFacilitiesAnswer,
  agentStatsAnswer,
  capabilitiesAnswer,
  detectCategory,
  onboarding,
  publicReceipt,
  receiptListAnswer,
  receiptsOf,
  type AgentCaller,
} from '../domain/agent.js';
import { type SandboxEnv } from '../http.js';
import { authInstructions } from '../policy/guard.js';
import { callerId } from '../policy/limits.js';
import { DAILY_REQUESTS, type Tier } from '../policy/tiers.js';
import type { RouteRegistry } from '../registry.js';
import { hexId } from '../rng.js';

/** Requests left today for this caller (spec §8.1), after the current one was counted. */
function callsRemaining(ctx: SandboxContext, c: Context<SandboxEnv>, tier: Tier): number {
  const limit = DAILY_REQUESTS[tier];
  return Math.max(0, limit - ctx.counters.used(ctx.clock.nowMs(), `req:${callerId(c, tier)}`));
}

const agentName = (ctx: SandboxContext, c: Context<SandboxEnv>, tier: Tier) =>
  `sandbox-${tier}-agent-${hexId(6, ctx.seed, 'agent', c.req.header('x-api-key') ?? c.req.header('authorization') ?? '')}`;

/** The keyed caller as agent answers name it; undefined without a key. */
const agentCaller = (ctx: SandboxContext, c: Context<SandboxEnv>, tier: Tier): AgentCaller | undefined =>
  tier === 'anonymous' ? undefined : { name: agentName(ctx, c, tier), remaining: callsRemaining(ctx, c, tier) };

const originOf = (c: Context) => new URL(c.req.url).origin;

function registerCapabilities(r: RouteRegistry): void {
  r.add({
    ...ENDPOINTS.agentCapabilities,
    summary: 'Agent description: capabilities, endpoints, auth and discovery files',
    tags: ['Agent'],
    responses: { 200: { description: 'Static agent description' } },
    handler: (c) => c.json(capabilitiesAnswer(originOf(c))),
  });
}

function registerWhoami(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.agentWhoami,
    summary: 'The calling agent: profile and requests left today, or auth instructions without a key',
    tags: ['Agent'],
    responses: { 200: { description: 'Profile, or `authenticated: false` with auth instructions' } },
    handler: (c) => {
      const tier = c.get('tier');
      const caller = agentCaller(ctx, c, tier);
      if (!caller) {
        return c.json({
          authenticated: false,
          message: 'No API key provided. Send X-API-Key (claim a free key instantly: POST /api/v1/keys/claim).',
          auth_instructions: authInstructions(c),
        });
      }
      return c.json({
        authenticated: true,
        agent: {
          name: caller.name,
          tier,
          api_calls_remaining: caller.remaining,
          daily_limit: DAILY_REQUESTS[tier],
          is_claimed: true,
          follower_count: 0,
        },
        message: `Welcome, ${caller.name}! You have access to DC Hub data (sandbox).`,
      });
    },
  });
}

function registerAgentData(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.agentFacilities,
    summary: 'Facility search for agents (country is a country name here); works without a key',
    tags: ['Agent'],
    responses: {
      200: { description: 'Matching facilities' },
      400: { description: 'A parameter is invalid', schema: ErrorBody },
    },
    handler: (c, { query }) => c.json(agentFacilitiesAnswer(ctx, query, agentCaller(ctx, c, c.get('tier')))),
  });

  r.add({
    ...ENDPOINTS.agentStats,
    summary: 'Global counts',
    tags: ['Agent'],
    responses: { 200: { description: 'Counts of the inventory' } },
    handler: (c) => c.json(agentStatsAnswer(ctx, authInstructions(c))),
  });
}

function registerOnboard(r: RouteRegistry): void {
  r.add({
    ...ENDPOINTS.onboard,
    summary: 'Onboarding guidance for a kind of client (browse, mcp, connector, rest)',
    tags: ['Agent'],
    responses: {
      200: { description: 'Onboarding guidance' },
      400: { description: 'type is not one of browse, mcp, connector, rest', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      if (query.type) return c.json(onboarding(originOf(c), query.type, 'type param'));
      const detected = detectCategory(c.req.header('user-agent') ?? '');
      return c.json(onboarding(originOf(c), detected ?? 'browse', detected ? 'user-agent' : 'default'));
    },
  });
}

function registerReceipts(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.receipts,
    summary: 'Published model-evaluation runs (receipts)',
    tags: ['Public'],
    responses: { 200: { description: 'The published runs with counts and protocol' } },
    handler: (c) => c.json(receiptListAnswer(ctx, ctx.clock.nowMs())),
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

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  registerCapabilities(r);
  registerWhoami(r, ctx);
  registerAgentData(r, ctx);
  registerOnboard(r);
  registerReceipts(r, ctx);
}
