import {
  BRIEF_BULK_DAILY_CAP,
  MCP_ANONYMOUS_RESULTS,
  MCP_DAILY_CALLS as PLAN_MCP_DAILY_CALLS,
  PLAN_LEVEL,
  REST_DAILY_REQUESTS,
  atLeastPlan,
} from '@dchub/core';

/**
 * The plans a sandbox caller can be on (`anonymous` sent no key). Every number comes from core's one
 * plans table (core/src/plans.ts), which the client's ledger and both hosts read too.
 */
export type Tier = 'anonymous' | 'free' | 'starter' | 'developer' | 'pro' | 'enterprise';
export const TIERS: readonly Tier[] = ['anonymous', 'free', 'starter', 'developer', 'pro', 'enterprise'];

/** Plan ladder: a tier opens everything a lower one does. */
export const TIER_LEVEL: Readonly<Record<Tier, number>> = PLAN_LEVEL;
export const atLeast = (tier: Tier, required: Tier): boolean => atLeastPlan(tier, required);

/** REST requests per day (spec §8.1); keyless read calls: 10 per day. */
export const DAILY_REQUESTS: Readonly<Record<Tier, number>> = REST_DAILY_REQUESTS;

/** Daily cap on the bulk brief endpoints /all, /diff and /all.csv (spec §5.2); Infinity = unlimited. */
export const BRIEF_BULK_CAP: Readonly<Record<Tier, number>> = BRIEF_BULK_DAILY_CAP;

/** MCP allowance per day (spec §8.1). Anonymous callers also get 2 results per query. */
export const MCP_DAILY_CALLS: Readonly<Record<Tier, number>> = PLAN_MCP_DAILY_CALLS;
export const MCP_ANON_RESULTS = MCP_ANONYMOUS_RESULTS;
