/** Upgrade links and the rich 403 bodies of the real service (reference notes §1.3, §1.4). */
import type { Tier } from '../../policy/tiers.js';

export const PRICING = 'https://dchub.cloud/pricing';
export const CLAIM = 'https://dchub.cloud/api/v1/keys/claim';

export const UPGRADE_OPTIONS = [
  {
    plan: 'pack',
    opens: 'rest',
    label: '$10 one-time = 1,000 API credits; each full answer here uses one',
    url: PRICING,
  },
  { plan: 'developer', opens: 'rest', label: 'Developer $49/mo opens this endpoint', url: `${PRICING}#developer` },
];

const PLAN_LABEL: Record<Tier, string> = {
  anonymous: 'Anonymous',
  free: 'Free',
  starter: 'Starter',
  developer: 'Developer',
  pro: 'Pro',
  enterprise: 'Enterprise',
};

/** `require_plan` with no credential: 403 (not 401), `plan_required`, with a claim hint for agents. */
export function noCredentialWall(required: Tier) {
  return {
    success: false,
    error: 'plan_required',
    message: `This endpoint requires a ${PLAN_LABEL[required]} plan or higher.`,
    plans: { developer: '$49/mo', pro: '$99/mo', enterprise: 'custom' },
    signup_url: CLAIM,
    pricing_url: PRICING,
    free_alternative: '/api/v1/stats (platform totals, no key)',
    current_plan: 'free',
    required_plan: required,
    human_message: `A ${PLAN_LABEL[required]} key opens this endpoint. Claim a free key, then upgrade at ${PRICING}.`,
    upgrade_url: PRICING,
    current_tier: 'anonymous',
    user_calls_7d: 0,
    tier_signal: 'hard_paywall',
    agent_claim: {
      url: CLAIM,
      method: 'POST',
      body: { client_name: '<your agent name>' },
      returns: 'api_key',
      note: 'A claimed key is free; paid plans open gated endpoints.',
    },
  };
}

/** A valid key below the plan (keyed-walls gate, Sep-2026+). */
export function keyedWall(tier: Tier, required: Tier) {
  return {
    success: false,
    error: 'plan_upgrade_required',
    message: `A key on the ${PLAN_LABEL[required]} plan or above opens this endpoint over REST, and so does any valid key holding pack credits. The free key from /keys/claim does not open it.`,
    required_plan: required,
    current_plan: tier,
    pricing_url: PRICING,
    upgrade_url: PRICING,
    upgrade_options: UPGRADE_OPTIONS,
  };
}

/** Markers of a REST tease (§1.3); `locked` is sorted, `notApplied` only when any. */
export function teaseMarkers(locked: readonly string[], total: number | null, notApplied: readonly string[] = []) {
  return {
    _gated: true as const,
    _preview_only: true as const,
    _locked_fields: [...locked].sort(),
    _total_available: total,
    ...(notApplied.length ? { _preview_params_not_applied: [...notApplied].sort() } : {}),
    upgrade_url: PRICING,
    upgrade_options: UPGRADE_OPTIONS,
  };
}

/** Drops the spec's §5.3 preview markers (the real service does not send them). */
export function withoutSpecMarkers<T extends Record<string, unknown>>(body: T): Record<string, unknown> {
  const { _required_tier: _r, _hidden_count: _h, _signup_url: _s, _upgrade_cta: _u, ...rest } = body;
  return rest;
}
