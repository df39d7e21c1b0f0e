import type { LedgerSnapshot } from '@dchub/core';
import type { Authenticated } from './auth.js';
import type { Served } from './failover.js';
import type { Gateway } from './gateway.js';

/** Every answer says it came through the gateway (hosts then say "via the team gateway"). */
export const GATEWAY_HEADER = 'X-DCHub-Gateway';
/** One line on each answer served while the replica works without Redis. */
export const NOTICE_HEADER = 'X-DCHub-Notice';

/**
 * What is left of the team's allowance and of the caller's share, as answer headers. A cached
 * answer reads them from the states fetched with the caller's credential (no further round trip);
 * after an upstream request they are read again, since that request spent one. Served without
 * Redis, they are the states last read, less what this replica spent since.
 */
export async function allowanceHeaders(
  gateway: Gateway,
  auth: Authenticated,
  spent: boolean,
  served: Pick<Served<unknown>, 'team' | 'degraded'>,
): Promise<Record<string, string>> {
  const team = served.team;
  let snaps: { team: LedgerSnapshot; share?: LedgerSnapshot };
  try {
    if (served.degraded) snaps = lessSpentWithoutRedis(gateway, auth);
    else if (spent) {
      const share = team.shareLedger(auth.caller);
      snaps = { team: await team.ledger.snapshot(), ...(share ? { share: await share.snapshot() } : {}) };
    } else snaps = team.allowances(auth.caller, auth.states);
  } catch {
    return {}; // the states could not be read (Redis went away mid-call): the answer goes without them
  }
  return {
    'X-DCHub-Team-Limit': String(snaps.team.limit),
    'X-DCHub-Team-Remaining': String(snaps.team.remaining),
    'X-DCHub-Resets-At': snaps.share?.resetsAt ?? snaps.team.resetsAt,
    ...(snaps.share
      ? {
          'X-DCHub-Share-Limit': String(snaps.share.limit),
          'X-DCHub-Share-Remaining': String(snaps.share.remaining),
        }
      : {}),
  };
}

function lessSpentWithoutRedis(g: Gateway, auth: Authenticated): { team: LedgerSnapshot; share?: LedgerSnapshot } {
  const seen = g.shared.allowances(auth.caller, auth.states);
  const less = (s: LedgerSnapshot, n: number): LedgerSnapshot => ({ ...s, remaining: Math.max(0, s.remaining - n) });
  return {
    team: less(seen.team, g.degraded.spent),
    ...(seen.share ? { share: less(seen.share, g.degraded.spentBy(auth.caller.shareId)) } : {}),
  };
}
