import type { Context } from 'hono';
import type { SandboxContext } from '../context.js';
import { show, type SandboxEnv } from '../http.js';
import { AUTH_INSTRUCTIONS_PATH } from '../labels.js';
import type { RouteSpec } from '../registry.js';
import { callerId, dailyReset } from './limits.js';
import { DAILY_REQUESTS, atLeast } from './tiers.js';

export const authInstructions = (c: { req: { url: string } }) =>
  `${new URL(c.req.url).origin}${AUTH_INSTRUCTIONS_PATH}`;

/**
 * Per-route access: the plan a route requires under the profile (a refusal below it), then the
 * caller's daily request allowance (spec §8.1) with the profile's rate-limit headers on every
 * counted answer.
 */
export function routeGuard(ctx: SandboxContext) {
  const access = ctx.presenters.access;
  return (c: Context<SandboxEnv>, spec: RouteSpec): Response | undefined => {
    const tier = c.get('tier');
    const required = access.required(spec.path, spec.requires);
    if (required && !atLeast(tier, required)) return show(c, access.refuse(c, tier, required));
    if (spec.counted === false || !ctx.enforceLimits) return undefined;
    const now = ctx.clock.nowMs();
    const limit = DAILY_REQUESTS[tier];
    const left = ctx.counters.take(now, `req:${callerId(c, tier)}`, limit);
    const reset = dailyReset(now);
    if (left < 0) return show(c, access.dailyLimit(tier, limit, reset));
    for (const [k, v] of Object.entries(access.allowanceHeaders(tier, limit, left, reset.epoch))) c.header(k, v);
    return undefined;
  };
}
