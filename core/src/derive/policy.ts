import { scalarText } from '../args.js';
import { DAILY_ALLOWANCE } from '../cache/ledger.js';

/**
 * How narrower questions are answered from wider answers (issue 14):
 * - `off`: every question is its own request (and its own cache entry);
 * - `exact`: a fresh cached wider answer that provably contains the answer serves it locally;
 *   otherwise the exact question is sent;
 * - `widen`: like `exact`, and a queue question that must go to the network is sent in its widest
 *   likely-complete form (its ISO set and status, limit 1000) and a DCPI or brief item as its list,
 *   so that later related questions cost nothing.
 */
export const DERIVE_MODES = ['off', 'exact', 'widen'] as const;
export type DeriveMode = (typeof DERIVE_MODES)[number];

/** Daily allowances at or under this many calls widen by default; larger ones ask exactly. */
export const WIDEN_UP_TO_DAILY_CALLS = 500;

/**
 * The default mode of a caller. Keyless callers get gated previews, which answer nothing but
 * themselves, so widening would only spend their calls: `exact`. Small allowances (free, starter,
 * developer) widen; large ones (Pro, Enterprise) ask exactly and keep their answers small.
 */
export function defaultDeriveMode(tier: string | undefined, dailyLimit?: number): DeriveMode {
  if (!tier || tier === 'anonymous') return 'exact';
  const limit = DAILY_ALLOWANCE[tier] ?? dailyLimit;
  return limit !== undefined && limit <= WIDEN_UP_TO_DAILY_CALLS ? 'widen' : 'exact';
}

/** Parses a mode from a setting or flag (`off`, `exact`, `widen`; `false`/`no`/`0` mean off). */
export function parseDeriveMode(v: unknown): DeriveMode | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (v === false) return 'off';
  const s = (scalarText(v) ?? '').trim().toLowerCase();
  if (['false', 'no', '0', 'none'].includes(s)) return 'off';
  return (DERIVE_MODES as readonly string[]).includes(s) ? (s as DeriveMode) : undefined;
}
