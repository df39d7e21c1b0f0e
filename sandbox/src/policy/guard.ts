import type { Context } from 'hono';
import type { SandboxEnv } from '../http.js';
import type { SandboxContext } from '../context.js';
import { AUTH_INSTRUCTIONS_PATH } from '../labels.js';
import type { RouteSpec } from '../registry.js';
import { PRICING_URL, SIGNUP_URL } from './gating.js';
import { callerId, dailyReset } from './limits.js';
import { DAILY_REQUESTS, atLeast } from './tiers.js';

export const authInstructions = (c: Context) => `${new URL(c.req.url).origin}${AUTH_INSTRUCTIONS_PATH}`;

/** The 429 every limit answers with: JSON `error`, `Retry-After` to the daily reset. */
export function limitResponse(c: Context<SandboxEnv>, nowMs: number, body: Record<string, unknown>, limit: number): Response {
  const reset = dailyReset(nowMs);
  c.header('Retry-After', String(reset.seconds));
  c.header('X-RateLimit-Limit', String(limit));
  c.header('X-RateLimit-Remaining', '0');
  c.header('X-RateLimit-Reset', String(reset.epoch));
  return c.json({ ...body, retry_after: reset.seconds, resets_at: reset.iso, upgrade_url: PRICING_URL }, 429);
}

/**
 * Per-route access: the plan a route requires (401 keyless, 403 below plan), then the caller's
 * daily request allowance (spec §8.1) with X-RateLimit-* headers on every counted answer.
 */
export function routeGuard(ctx: SandboxContext) {
  return (c: Context<SandboxEnv>, spec: RouteSpec): Response | undefined => {
    const tier = c.get('tier');
    if (spec.requires && !atLeast(tier, spec.requires)) {
      if (tier === 'anonymous') {
        return c.json(
          {
            error: 'api_key_required',
            message: `This endpoint requires an API key (X-API-Key). Claim a free key instantly: POST ${SIGNUP_URL}`,
            auth_instructions: authInstructions(c),
          },
          401,
        );
      }
      return c.json(
        {
          success: false,
          error: 'plan_required',
          message: `This endpoint requires the ${spec.requires} plan or higher.`,
          current_plan: tier,
          required_plan: spec.requires,
          pricing_url: PRICING_URL,
          upgrade_url: PRICING_URL,
        },
        403,
      );
    }
    if (spec.counted === false || !ctx.enforceLimits) return undefined;
    const now = ctx.clock.nowMs();
    const limit = DAILY_REQUESTS[tier];
    const left = ctx.counters.take(now, `req:${callerId(c, tier)}`, limit);
    if (left < 0) {
      return limitResponse(
        c,
        now,
        {
          error: 'daily_limit_reached',
          message: `Daily request limit reached for the ${tier} tier (${limit}/day).${tier === 'anonymous' ? ' Send X-API-Key, or claim a free key: POST /api/v1/keys/claim.' : ''}`,
          tier,
          limit,
        },
        limit,
      );
    }
    c.header('X-RateLimit-Limit', String(limit));
    c.header('X-RateLimit-Remaining', String(left));
    c.header('X-RateLimit-Reset', String(dailyReset(now).epoch));
    c.header('X-RateLimit-Tier', tier);
    return undefined;
  };
}
