/** The plans a caller can be on; `anonymous` sent no key. */
export type Tier = 'anonymous' | 'free' | 'starter' | 'developer' | 'pro' | 'enterprise';
export const TIERS: readonly Tier[] = ['anonymous', 'free', 'starter', 'developer', 'pro', 'enterprise'];

/** Plan ladder: a tier opens everything a lower one does. */
export const TIER_LEVEL: Record<Tier, number> = { anonymous: -1, free: 0, starter: 2, developer: 3, pro: 4, enterprise: 5 };
export const atLeast = (tier: Tier, required: Tier): boolean => TIER_LEVEL[tier] >= TIER_LEVEL[required];

/** REST requests per day (spec §8.1); keyless read calls: 10 per day. */
export const DAILY_REQUESTS: Record<Tier, number> = {
  anonymous: 10, free: 10, starter: 200, developer: 500, pro: 2000, enterprise: 100_000,
};

/** Daily cap on the bulk brief endpoints /all, /diff and /all.csv (spec §5.2); Infinity = unlimited. */
export const BRIEF_BULK_CAP: Record<Tier, number> = {
  anonymous: 3, free: 10, starter: 10, developer: 10, pro: Infinity, enterprise: Infinity,
};

/** MCP allowance per day (spec §8.1). Anonymous callers also get 2 results per query. */
export const MCP_DAILY_CALLS: Record<Tier, number> = {
  anonymous: 10, free: 1000, starter: 10_000, developer: Infinity, pro: Infinity, enterprise: Infinity,
};
export const MCP_ANON_RESULTS = 2;
