import type { Authenticated } from './auth.js';
import type { Gateway } from './gateway.js';
import type { Team } from './team.js';
import { hashToken } from './tokens.js';

/**
 * How a call is answered whether Redis is there or not. Through the team's shared state while
 * Redis is usable; through this replica's own memory cache and degraded budget when it is not, or
 * when the shared path fails on a Redis command midway (that call is answered again locally: a
 * failed call never becomes a 500, at worst one duplicate upstream request within the budget).
 */

/** The verdict on a credential: its caller, unknown to the team (401), or not verifiable now (503). */
export type Verdict = Authenticated | 'unknown' | 'unavailable';

/** Who sends `credential`: asked of Redis when it can answer, else of the tokens this replica verified lately. */
export async function verifyCaller(g: Gateway, credential: string): Promise<Verdict> {
  const hash = hashToken(credential);
  if (g.redis.isReady) {
    try {
      const auth = await g.authenticator.authenticate(credential);
      if (!auth) {
        g.recent.forget(hash);
        return 'unknown';
      }
      g.recent.remember(hash, { auth, counterKey: g.authenticator.counterKey(hash), verifiedAt: g.now() });
      const left = g.shared.allowances(auth.caller, auth.states);
      g.degraded.seen(
        left.team.remaining,
        left.share ? { id: auth.caller.shareId, left: left.share.remaining } : undefined,
      );
      return auth;
    } catch (err) {
      g.log.debug({ redis: 'auth-failed', error: (err as Error).name }, 'token lookup failed on Redis');
    }
  }
  const known = g.recent.recall(hash, g.lostAt ?? g.now());
  if (!known) return 'unavailable';
  g.degraded.countCall(known.counterKey);
  return { ...known.auth, fromMemory: true };
}

/** The answer of `work`, which team gave it, and whether it was served without the shared state. */
export interface Served<T> {
  value: T;
  team: Team;
  degraded: boolean;
}

/** Runs `work` for the caller: through the shared team, or this replica's own when Redis cannot serve it. */
export async function serveCall<T extends { status: number }>(
  g: Gateway,
  auth: Authenticated,
  work: (team: Team) => Promise<T>,
): Promise<Served<T>> {
  if (!auth.fromMemory && g.sharedUsable) {
    const shared = g.shared;
    let failure: Error | undefined;
    let value: T | undefined;
    try {
      value = await shared.run(auth.caller, async () => {
        try {
          return await work(shared);
        } finally {
          failure = shared.calls.getStore()?.sharedFailure;
        }
      });
    } catch (err) {
      if (!failure) throw err;
    }
    if (!failure) return { value: value!, team: shared, degraded: false };
    // Answered all the same (an answer's write was lost, say): served, and marked.
    if (value && value.status < 500) return { value, team: shared, degraded: true };
    g.log.debug({ redis: 'failover', error: failure.name }, 'a call failed on Redis: answered locally');
  }
  return serveLocally(g, auth, work);
}

async function serveLocally<T>(g: Gateway, auth: Authenticated, work: (team: Team) => Promise<T>): Promise<Served<T>> {
  g.degraded.open();
  g.degraded.inFlight++;
  try {
    const value = await g.local.run(auth.caller, () => work(g.local));
    return { value, team: g.local, degraded: true };
  } finally {
    g.degraded.inFlight--;
    // Redis came back while this call ran: what it spent is written back now.
    if (g.sharedUsable) g.writeBack().catch(() => undefined);
  }
}
