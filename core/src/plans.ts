/**
 * The plans of the DC Hub service, once: the tier ladder, REST and MCP daily allowances, the market
 * brief scope, page sizes and bulk caps, and the market-list rows (spec §5.2, §8.1, §8.2; reference
 * notes §1, §2.2, §2.29). Core's quota ledger, the sandbox's policy and both hosts read these.
 * `Infinity` means unlimited.
 */

/** The plans the tables name. `identified` and `founding` are the real service's (notes §1). */
export const PLAN_TIERS = [
  'anonymous',
  'free',
  'identified',
  'starter',
  'developer',
  'pro',
  'founding',
  'enterprise',
] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

/**
 * The plan ladder (notes §1, PLAN_LEVELS): a plan opens everything a lower one does. Internal plans
 * (`research_seed`, `admin`) are ranked too, and get the values of the highest named plan at or below.
 */
/**
 * The tier a caller is taken to have until the service says (X-RateLimit-Limit, whoami, a 429): a
 * keyed caller Free, a keyless one anonymous (the real service states no allowance to keyless callers).
 */
export const defaultTier = (apiKey: string | undefined): PlanTier => (apiKey?.trim() ? 'free' : 'anonymous');

export const PLAN_LEVEL: Readonly<Record<string, number>> = {
  anonymous: -1,
  free: 0,
  identified: 1,
  starter: 2,
  developer: 3,
  pro: 4,
  founding: 4,
  enterprise: 5,
  research_seed: 5,
  admin: 99,
};

/** A tier as the service spells it anywhere (`ENTERPRISE`, ` Pro`, `anon`) in the tables' spelling. */
export function normalizeTier(tier: string | null | undefined): string {
  const t = (tier ?? '').trim().toLowerCase();
  return t === '' || t === 'anon' ? 'anonymous' : t;
}

/** The level of a tier on the ladder (an unknown tier counts as free: a key of some plan). */
export const planLevel = (tier: string | null | undefined): number =>
  PLAN_LEVEL[normalizeTier(tier)] ?? PLAN_LEVEL.free;

/** Whether `tier` is `required` or above. */
export const atLeastPlan = (tier: string | null | undefined, required: string): boolean =>
  planLevel(tier) >= planLevel(required);

/** REST requests per day (spec §8.1; keyless read calls 10; identified 50 from the notes §1). */
export const REST_DAILY_REQUESTS: Readonly<Record<PlanTier, number>> = {
  anonymous: 10,
  free: 10,
  identified: 50,
  starter: 200,
  developer: 500,
  pro: 2000,
  founding: 2000,
  enterprise: 100_000,
};

/** MCP tool calls per day (spec §8.1, MCP plans): an allowance apart from REST. */
export const MCP_DAILY_CALLS: Readonly<Record<PlanTier, number>> = {
  anonymous: 10,
  free: 1000,
  identified: 1000,
  starter: 10_000,
  developer: Infinity,
  pro: Infinity,
  founding: Infinity,
  enterprise: Infinity,
};

/** Results per MCP list answer for keyless callers (spec §8.1). */
export const MCP_ANONYMOUS_RESULTS = 2;

/**
 * Daily cap on each bulk brief endpoint (`/all`, `/diff`, `/all.csv`; spec §5.2). Identified and
 * Developer from the notes §2.29 (the spec's table is silent on them).
 */
export const BRIEF_BULK_DAILY_CAP: Readonly<Record<PlanTier, number>> = {
  anonymous: 3,
  free: 10,
  identified: 50,
  starter: 10,
  developer: 50,
  pro: Infinity,
  founding: Infinity,
  enterprise: Infinity,
};

/** Markets in a tier's brief scope (spec §5.2): the first 5 seed markets, the 15 seeds, or all (~232). */
export const BRIEF_MARKETS_IN_SCOPE: Readonly<Record<PlanTier, number>> = {
  anonymous: 5,
  free: 5,
  identified: 5,
  starter: 5,
  developer: 5,
  pro: 15,
  founding: 15,
  enterprise: Infinity,
};

/** Largest brief page (`limit`) a tier may ask for (spec §8.2): 50 below Pro, 500 from Pro. */
export const BRIEF_PAGE_MAX: Readonly<Record<PlanTier, number>> = {
  anonymous: 50,
  free: 50,
  identified: 50,
  starter: 50,
  developer: 50,
  pro: 500,
  founding: 500,
  enterprise: 500,
};

/** The page size every tier may ask for: the first page when the tier is not known yet. */
export const BRIEF_PAGE_DEFAULT = 50;

/** Rows of `/api/v1/markets/list` per tier (notes §2.2). */
export const MARKET_LIST_ROWS: Readonly<Record<PlanTier, number>> = {
  anonymous: 5,
  free: 10,
  identified: 10,
  starter: 10,
  developer: 50,
  pro: 1000,
  founding: 1000,
  enterprise: 1000,
};

/**
 * A tier's value in one of the tables above: its own, else that of the highest named plan at or
 * below its level (`research_seed` and `admin` read as Enterprise; an unknown tier as Free).
 */
export function planValue(table: Readonly<Record<PlanTier, number>>, tier: string | null | undefined): number {
  const t = normalizeTier(tier);
  if (Object.prototype.hasOwnProperty.call(table, t)) return table[t as PlanTier];
  const level = planLevel(t);
  let best: PlanTier = 'free';
  for (const p of PLAN_TIERS) if (PLAN_LEVEL[p] <= level && PLAN_LEVEL[p] >= PLAN_LEVEL[best]) best = p;
  return table[best];
}

/**
 * Brief pages and scope from Pro (the service's `_is_pro`: Pro, Founding, Enterprise and internal plans; not
 * Developer).
 */
export const isBriefPro = (tier: string | null | undefined): boolean =>
  planValue(BRIEF_PAGE_MAX, tier) > BRIEF_PAGE_DEFAULT;

export const briefPageMax = (tier: string | null | undefined): number => planValue(BRIEF_PAGE_MAX, tier);
export const briefMarketsInScope = (tier: string | null | undefined): number => planValue(BRIEF_MARKETS_IN_SCOPE, tier);
export const briefBulkDailyCap = (tier: string | null | undefined): number => planValue(BRIEF_BULK_DAILY_CAP, tier);
export const restDailyRequests = (tier: string | null | undefined): number => planValue(REST_DAILY_REQUESTS, tier);
export const mcpDailyCalls = (tier: string | null | undefined): number => planValue(MCP_DAILY_CALLS, tier);
