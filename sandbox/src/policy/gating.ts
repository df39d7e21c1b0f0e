import type { Tier } from './tiers.js';

export const SIGNUP_URL = 'https://dchub.cloud/api/v1/keys/claim';
export const PRICING_URL = 'https://dchub.cloud/pricing';

/** Spec §5.3 markers of a gated preview. `IDENTIFIED` means any caller with a key. */
export function gatedMarkers(
  total: number,
  shown: number,
  requiredTier: 'IDENTIFIED' | 'DEVELOPER' | 'PRO' = 'IDENTIFIED',
) {
  return {
    _gated: true as const,
    _preview_only: true as const,
    _required_tier: requiredTier,
    _total_available: total,
    _hidden_count: Math.max(0, total - shown),
    _signup_url: requiredTier === 'IDENTIFIED' ? SIGNUP_URL : PRICING_URL,
    _upgrade_cta:
      requiredTier === 'IDENTIFIED'
        ? `Showing ${shown} of ${total}. Send X-API-Key (claim a free key instantly: POST /api/v1/keys/claim) to see everything.`
        : `Showing ${shown} of ${total}. The ${requiredTier.toLowerCase()} plan or above opens the full answer.`,
  };
}

export const isKeyless = (tier: Tier) => tier === 'anonymous';
