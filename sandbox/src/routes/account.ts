import { ErrorBody, ENDPOINTS, KeyClaimAnswer } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { hexId } from '../rng.js';
import type { RouteRegistry } from '../registry.js';

/** Claimed keys are idempotent per (client_name, caller address), like the real service. */
export function register(r: RouteRegistry, ctx: SandboxContext): void {
  const claimed = new Map<string, string>();
  let minted = 0;
  r.add({
    ...ENDPOINTS.keyClaim,
    summary: 'Issue a free API key at once (no card)',
    tags: ['Account'],
    counted: false,
    responses: {
      200: { description: 'A free key', schema: KeyClaimAnswer },
      400: { description: 'Body is not JSON', schema: ErrorBody },
      413: { description: 'Body over 1 MB', schema: ErrorBody },
    },
    handler: (c, { body }) => {
      const who = `${(body.client_name ?? '').slice(0, 80)}|${c.req.header('x-forwarded-for') ?? 'local'}`;
      const existing = claimed.get(who);
      const key = existing ?? `dch_live_${hexId(32, ctx.seed, 'claim', who, ++minted)}`;
      claimed.set(who, key);
      ctx.keys.set(key, 'free');
      return c.json({
        ok: true,
        api_key: key,
        tier: 'free',
        developer_id: `dev_${hexId(16, key, 'dev')}`,
        claim_id: `clm_${hexId(16, key, 'claim')}`,
        reused: existing !== undefined,
        unverified: true,
        email_captured: false,
        usage_instructions:
          'Pass this key as the X-API-Key header on requests to the REST API, or in your MCP client configuration for /mcp.',
        free_tier_summary: {
          daily_calls: 10,
          paid_only_tools: ['analyze_site', 'compare_sites', 'get_fiber_intel', 'get_grid_intelligence'],
        },
        note: 'Sandbox key: valid until the sandbox restarts.',
      });
    },
  });
}
