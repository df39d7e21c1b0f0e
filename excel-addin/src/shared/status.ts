/**
 * What the pane shows about the service: tier and quota (from the ledger, and from whoami when a
 * key is set), cache size, and whether the service is reachable (last call failed, stale answers
 * served). No DOM here; nothing secret is kept or returned.
 */
import { DchubError, NetworkError, quotaLine, whoami, type DchubClient } from '@dchub/core';

export interface Health {
  ok: boolean;
  at: number;
  what: string;
  message?: string;
}

let last: Health | undefined;

export function noteSuccess(what: string): void {
  last = { ok: true, at: Date.now(), what };
}

export function noteFailure(what: string, err: unknown): void {
  last = { ok: false, at: Date.now(), what, message: err instanceof Error ? err.message : String(err) };
}

export const lastHealth = (): Health | undefined => last;

/** Resets the recorded outcome (tests). */
export function resetHealth(): void {
  last = undefined;
}

export interface PaneStatus {
  keyed: boolean;
  tier: string;
  limit: number;
  used: number;
  remaining: number;
  resetsAt: string;
  /** Whether the service has told the tier (else it is assumed). */
  confirmed: boolean;
  /** The service is a team gateway: it keeps the allowance, and the key is the caller's gateway token. */
  viaGateway: boolean;
  /** The day's allowance in core's words (behind a gateway: the token's share left and the team's). */
  quotaText: string;
  /** From whoami (keyed callers, when asked). */
  account?: { name: string; remaining: number } | { error: string };
  cacheEntries: number;
  staleServed: number;
  /** Offline/stale indicator text, empty when all is well. */
  warning: string;
}

export function healthWarning(
  staleServed: number,
  health = last,
  online = (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine,
): string {
  if (online === false) return 'Offline: DCHUB formulas answer from the cache.';
  if (health && !health.ok) {
    const at = new Date(health.at).toISOString().slice(11, 16);
    return `Last call failed at ${at} UTC (${health.what}): ${health.message ?? 'error'}`;
  }
  if (staleServed > 0)
    return `${staleServed} answer${staleServed === 1 ? '' : 's'} served stale from the cache (service unreachable or quota spent).`;
  return '';
}

/**
 * Reads the pane status. `account: true` asks whoami (one call, keyed callers only); a failure
 * there is reported in `account`, not thrown.
 */
export async function readStatus(client: DchubClient, opts: { account?: boolean } = {}): Promise<PaneStatus> {
  let account: PaneStatus['account'];
  if (opts.account && client.hasApiKey) {
    try {
      const w = await whoami(client);
      account = w.authenticated ? { name: w.agent.name, remaining: w.agent.api_calls_remaining } : { error: w.message };
      noteSuccess('whoami');
    } catch (err) {
      if (err instanceof NetworkError || !(err instanceof DchubError) || err.status === undefined || err.status >= 500)
        noteFailure('whoami', err);
      account = { error: err instanceof Error ? err.message : String(err) };
    }
  }
  const snap = client.ledger ? await client.ledger.snapshot() : undefined;
  const cacheEntries = client.cache ? await client.cache.count() : 0;
  const staleServed = client.cache?.stats.staleServed ?? 0;
  return {
    keyed: client.hasApiKey,
    tier: snap?.tier ?? (client.hasApiKey ? 'free' : 'anonymous'),
    limit: snap?.limit ?? Infinity,
    used: snap?.used ?? 0,
    remaining: snap?.remaining ?? Infinity,
    resetsAt: snap?.resetsAt ?? '',
    confirmed: snap?.confirmed ?? false,
    viaGateway: snap?.viaGateway ?? false,
    quotaText: snap ? quotaLine(snap) : quotaLine({ limit: Infinity, used: 0, remaining: Infinity, resetsAt: '' }),
    account,
    cacheEntries,
    staleServed,
    warning: healthWarning(staleServed),
  };
}
