import { ENDPOINTS } from '@dchub/core';
import type { AccessPresenter } from '../types.js';
import { keyedWall, noCredentialWall, PRICING } from './upgrade.js';
import { atLeast, type Tier } from '../../policy/tiers.js';

/** Paths the real service walls below Developer (keyed-walls gate, notes §2.14, §2.16, §2.17). */
const DEVELOPER_WALLS = new Set<string>([ENDPOINTS.pipeline.path, ENDPOINTS.fuelMix.path, ENDPOINTS.energyPrices.path]);

/** Token-bucket size per minute (notes §1.5): what X-RateLimit-Remaining counts down. */
const PER_MINUTE = (tier: Tier) => (tier === 'anonymous' ? 20 : 120);
/**
 * The real service's access rules: no-credential refusals are 403 `plan_required`, valid keys
 * below the plan get the keyed-walls 403; X-RateLimit-Remaining is the per-minute token count.
 */
export function realAccess(): AccessPresenter {
  const minuteUse = new Map<string, number>();
  return {
    required: (path, declared) => {
      if (DEVELOPER_WALLS.has(path)) return declared && atLeast(declared, 'developer') ? declared : 'developer';
      return declared;
    },
    refuse: (_c, tier, required) => ({
      status: 403,
      body: tier === 'anonymous' ? noCredentialWall(required) : keyedWall(tier, required),
    }),
    allowanceHeaders: (tier, limit, _left, resetEpoch) => {
      // Per-minute tokens, reported as the real middleware reports them (not enforced: the daily allowance is).
      const minute = `${tier}|${Math.floor(Date.now() / 60_000)}`;
      const used = (minuteUse.get(minute) ?? 0) + 1;
      if (minuteUse.size > 1000) minuteUse.clear();
      minuteUse.set(minute, used);
      void resetEpoch;
      return {
        'X-RateLimit-Remaining': String(Math.max(0, PER_MINUTE(tier) - used)),
        ...(tier === 'anonymous'
          ? {}
          : {
              'X-RateLimit-Limit': String(limit),
              'X-RateLimit-Tier': tier,
              'X-Auth-Method': 'api_key',
              'X-Powered-By': 'DC Hub Nexus',
            }),
      };
    },
    dailyLimit: (tier, _limit, reset) => ({
      status: 429,
      // @protect_data's record cap: no Retry-After, the reset time in the body.
      body: {
        error: 'daily_limit_reached',
        message: `Daily download limit reached for your ${tier} plan.`,
        records_remaining: 0,
        upgrade_url: PRICING,
        resets_at: reset.iso.replace('.000Z', 'Z'),
      },
    }),
    unknownKeyHeaders: () => ({ 'Cache-Control': 'private, no-store, max-age=0', Pragma: 'no-cache' }),
  };
}
