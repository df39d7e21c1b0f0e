import type { Authenticated } from './auth.js';
import type { Gateway } from './gateway.js';
import type { Team } from './team.js';
import { OidcVerifier } from './oidc.js';
import { hashToken, isGatewayToken } from './tokens.js';

/**
 * How a call is answered whether Redis is there or not. Through the team's shared state while
 * Redis is usable; through this replica's own memory cache and degraded budget when it is not, or
 * when the shared path fails on a Redis command midway (that call is answered again locally: a
 * failed call never becomes a 500, at worst one duplicate upstream request within the budget).
 */

/** The verdict on a credential: its caller, refused (401), or not verifiable now (503), with the words to say. */
export type Verdict = Authenticated | { refused: string } | { unavailable: string };

const UNKNOWN = { refused: 'the team gateway does not know this token (revoked, or never issued): ask your admin' };
const UNCHECKABLE = {
  unavailable:
    'the team gateway cannot reach its token store (Redis) and has not seen this token lately, so it cannot check it now; try again shortly',
};

/** Who sends `credential`: asked of Redis when it can answer, else of the tokens this replica verified lately. */
export async function verifyCaller(g: Gateway, credential: string): Promise<Verdict> {
  if (g.oidc && !isGatewayToken(credential) && OidcVerifier.isJwt(credential)) return verifyJwt(g, credential);
  const hash = hashToken(credential);
  if (g.redis.isReady) {
    try {
      const auth = await g.authenticator.authenticate(credential);
      if (!auth) {
        g.recent.forget(hash);
        return UNKNOWN;
      }
      noteVerified(g, hash, auth, g.authenticator.counterKey(hash));
      return auth;
    } catch (err) {
      g.log.debug({ redis: 'auth-failed', error: (err as Error).name }, 'token lookup failed on Redis');
    }
  }
  const known = g.recent.recall(hash, g.lostAt ?? g.now());
  if (!known) return UNCHECKABLE;
  g.degraded.countCall(known.counterKey);
  return { ...known.auth, fromMemory: true };
}

/** A caller Redis vouched for: remembered for an outage, and what is left of its share and the team's noted. */
function noteVerified(g: Gateway, key: string, auth: Authenticated, counterKey: string): void {
  g.recent.remember(key, { auth, counterKey, verifiedAt: g.now() });
  const left = g.shared.allowances(auth.caller, auth.states);
  g.degraded.seen(
    left.team.remaining,
    left.share ? { id: auth.caller.shareId, left: left.share.remaining } : undefined,
  );
}

/** An OIDC bearer token: the identity provider vouches for the caller, so it passes with or without Redis. */
async function verifyJwt(g: Gateway, token: string): Promise<Verdict> {
  const v = await g.oidc!.verify(token);
  if (!('caller' in v)) return v;
  const counterKey = g.authenticator.counterKey(v.id);
  if (g.redis.isReady) {
    try {
      const auth = await g.authenticator.authenticateCaller(v.caller, v.id);
      noteVerified(g, v.id, auth, counterKey);
      return auth;
    } catch (err) {
      g.log.debug({ redis: 'auth-failed', error: (err as Error).name }, 'caller lookup failed on Redis');
    }
  }
  const seen = g.recent.recall(v.id, g.lostAt ?? g.now());
  g.degraded.countCall(counterKey);
  return { caller: v.caller, states: seen?.auth.states ?? {}, callsToday: 0, fromMemory: true };
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
