import { z } from 'zod';
import { feedChoiceParam } from './feeds.js';
import { optionalNumber, optionalString } from './params.js';

/** Agent and account endpoints (spec §4.5, notes §2.24, §2.26, §2.27) and receipts (spec §2.9). */

// ---------------------------------------------------------------- keys (one schema: core's calls and the sandbox's
// route)

/** Body of POST /api/v1/keys/claim (limits as the service's): what core sends and the sandbox accepts. */
export const KeyClaimRequest = z.object({
  client_name: optionalString({ maxLength: 200, description: 'Name of the client claiming the key' }),
  intended_use: optionalString({ maxLength: 2000, description: 'What the key is for' }),
  email: optionalString({ maxLength: 200, description: 'Contact address (optional)' }),
});

/**
 * The answer of POST /api/v1/keys/claim: a free key, issued at once. What core reads (real variants:
 * no `usage_instructions`, `free_tier_summary: null` for a paying customer's email; a reused key —
 * notes §2.25: idempotent reuse, the unused-key cap, the bind gate — without `developer_id`,
 * `claim_id` and `reused`) and what the sandbox's answer is documented and checked against.
 */
export const KeyClaimAnswer = z.looseObject({
  ok: z.literal(true),
  api_key: z.string().min(1),
  tier: z.string(),
  developer_id: z.string().optional(),
  claim_id: z.string().optional(),
  reused: z.boolean().optional(),
  usage_instructions: z.string().optional(),
  free_tier_summary: z.looseObject({ daily_calls: z.number() }).nullable().optional(),
});
export type KeyClaimAnswerT = z.infer<typeof KeyClaimAnswer>;

// ---------------------------------------------------------------- agent description and identity

export const AgentCapabilities = z.looseObject({
  agent: z.looseObject({ name: z.string(), platform: z.string(), version: z.string() }),
  capabilities: z.array(z.looseObject({ name: z.string(), description: z.string(), endpoint: z.string() })),
  endpoints: z.array(z.looseObject({ method: z.string(), path: z.string(), auth: z.string() })),
  auth: z.looseObject({ header: z.string(), instructions: z.string() }),
  discovery_files: z.record(z.string(), z.string()),
});

export const AgentWhoami = z.union([
  z.looseObject({
    authenticated: z.literal(true),
    agent: z.looseObject({
      name: z.string(),
      api_calls_remaining: z.number(),
      is_claimed: z.boolean(),
      follower_count: z.number(),
    }),
    message: z.string().optional(),
  }),
  z.looseObject({
    authenticated: z.literal(false),
    message: z.string(),
    auth_instructions: z.string(),
  }),
]);

export const AGENT_FACILITIES_DEFAULT_LIMIT = 20;
export const AGENT_FACILITIES_MAX_LIMIT = 100;

export const AgentFacilitiesQuery = z.object({
  q: optionalString({ maxLength: 200, description: 'Text matched against name, city and provider' }),
  country: optionalString({
    maxLength: 80,
    description: 'Country name (substring, case-insensitive); a two-letter code also matches',
  }),
  limit: optionalNumber({
    min: 1,
    max: AGENT_FACILITIES_MAX_LIMIT,
    int: true,
    description: 'Rows to return (default 20, max 100)',
  }),
});

export const AgentFacilities = z.looseObject({
  success: z.boolean(),
  count: z.number(),
  facilities: z.array(z.looseObject({ id: z.number(), name: z.string(), city: z.string(), country: z.string() })),
  source: z.string(),
  authenticated_as: z.string().optional(),
  api_calls_remaining: z.number().optional(),
});

export const AgentStats = z.looseObject({
  success: z.boolean(),
  stats: z.looseObject({
    total_facilities: z.number(),
    countries_covered: z.number(),
    providers_tracked: z.number(),
    data_sources: z.number(),
    news_feeds: z.number(),
  }),
  source: z.string(),
});

// ---------------------------------------------------------------- onboarding

export const ONBOARD_TYPES = ['browse', 'mcp', 'connector', 'rest'] as const;

export const OnboardQuery = z.object({
  type: feedChoiceParam(ONBOARD_TYPES, {
    description: 'browse, mcp, connector or rest (default: detected from the User-Agent, else browse)',
  }),
});

export const Onboard = z.looseObject({
  ok: z.literal(true),
  category: z.enum(ONBOARD_TYPES),
  detected_from: z.string(),
  all_categories: z.array(z.string()),
  switch_category: z.string(),
  tagline: z.string(),
  free_key: z.looseObject({ anonymous: z.string(), claim_instant: z.string() }),
  key_endpoints: z.record(z.string(), z.string()),
  docs: z.record(z.string(), z.string()),
  cite_as: z.string(),
  what: z.string(),
  method: z.string(),
});

// ---------------------------------------------------------------- semantic search

export const SEMANTIC_MAX_TOPK = 50;

export const SemanticSearchBody = z.object({
  query: z
    .string({ error: 'is required and must be text' })
    .trim()
    .min(1, 'is required and must be non-empty text')
    .max(1000, 'must be at most 1000 characters')
    .meta({ description: 'Natural-language description of the facilities wanted' }),
  topK: z
    .number({ error: `must be a whole number from 1 to ${SEMANTIC_MAX_TOPK}` })
    .int(`must be a whole number from 1 to ${SEMANTIC_MAX_TOPK}`)
    .min(1, `must be a whole number from 1 to ${SEMANTIC_MAX_TOPK}`)
    .max(SEMANTIC_MAX_TOPK, `must be a whole number from 1 to ${SEMANTIC_MAX_TOPK}`)
    .default(5)
    .meta({ description: 'Matches to return (default 5)' }),
});

export const SemanticMatch = z.looseObject({
  id: z.string(),
  score: z.number(),
  name: z.string(),
  provider: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  lat: z.number(),
  lng: z.number(),
  power_mw: z.number(),
  status: z.string(),
});

export const SemanticSearchResult = z.looseObject({
  query: z.string(),
  topK: z.number(),
  count: z.number(),
  matches: z.array(SemanticMatch),
});

// ---------------------------------------------------------------- receipts

export const ReceiptApiCall = z.looseObject({
  n: z.number().int(),
  method: z.string(),
  url: z.string(),
  executed: z.boolean(),
  http_status: z.number().int().nullable(),
  request_body: z.unknown(),
  response_bytes: z.number().int(),
  response_excerpt: z.string(),
  response_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  response_truncated_by_harness: z.boolean(),
});

export const ReceiptSummary = z.looseObject({
  run_id: z.number().int(),
  model_id: z.string(),
  platform: z.string(),
  platform_label: z.string(),
  status: z.string(),
  evaluated_at: z.string(),
  published_at: z.string(),
  model_replies: z.number().int(),
  http_5xx_seen: z.number().int(),
  harness_notes: z.string(),
  verdict_sha256: z.string(),
  verdict_vs_previous: z.enum(['first_run', 'changed', 'unchanged']),
});

export const Receipt = ReceiptSummary.extend({
  api_calls: z.array(ReceiptApiCall),
  assessment: z.string(),
  verdict: z.record(z.string(), z.unknown()),
});

export const ReceiptList = z.looseObject({
  ok: z.boolean(),
  as_of: z.string(),
  counts: z.looseObject({
    by_platform: z.record(z.string(), z.number()),
    distinct_models: z.number().int(),
    published_runs: z.number().int(),
  }),
  limitations: z.array(z.string()),
  note: z.string(),
  protocol: z.record(z.string(), z.unknown()),
  receipts: z.array(Receipt),
});

/** One run: the receipt itself with `ok: true`. */
export const ReceiptDetail = Receipt.extend({ ok: z.literal(true) });

export type AgentWhoamiT = z.infer<typeof AgentWhoami>;
export type AgentFacilitiesT = z.infer<typeof AgentFacilities>;
export type OnboardT = z.infer<typeof Onboard>;
export type SemanticSearchBodyT = z.output<typeof SemanticSearchBody>;
export type SemanticSearchResultT = z.infer<typeof SemanticSearchResult>;
export type ReceiptT = z.infer<typeof Receipt>;
export type ReceiptListT = z.infer<typeof ReceiptList>;
