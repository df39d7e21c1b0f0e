import { MCP_DAILY_CALLS, REST_DAILY_REQUESTS } from '../plans.js';
import {
  gatewayAllowanceAt,
  isGatewayAnswer,
  mergeGatewayAllowance,
  readGatewayAllowance,
  type GatewayAllowance,
} from './gateway.js';
import type { KeyValueStore } from './store.js';

/** REST requests per day by tier (plans.ts, spec §8.1); keyless callers get 10. */
export const DAILY_ALLOWANCE: Record<string, number> = { ...REST_DAILY_REQUESTS };

/** "Unlimited" as a finite number: the ledger's state is stored as JSON, which has no Infinity. */
export const UNLIMITED = 1_000_000_000;

/** MCP tool calls per day (plans.ts, spec §8.1 MCP plans): a separate allowance from REST. */
export const MCP_DAILY_ALLOWANCE: Record<string, number> = Object.fromEntries(
  Object.entries(MCP_DAILY_CALLS).map(([tier, n]) => [tier, Number.isFinite(n) ? n : UNLIMITED]),
);

interface LedgerState {
  day: string;
  used: number;
  limit: number;
  tier: string;
  /**
   * The service itself stated this allowance (X-RateLimit-* headers, whoami, a 429). Only a known
   * allowance may hold calls back; an assumed one only warns. (Stored as `known`: states written by
   * older versions, whose `confirmed` meant "answered once", start out assumed.)
   */
  known?: boolean;
  /** When the service said the allowance resets (ms): the day ends then, whatever the local clock says. */
  resetAt?: number;
  /** The service is a team gateway (its answers say so): it keeps the allowance, this ledger only shows it. */
  viaGateway?: boolean;
  /** What the gateway last stated: the team's allowance and this caller's share. */
  gateway?: GatewayAllowance;
}

/** The tier a ledger behind a team gateway shows: the team's plan is the gateway's to know. */
export const GATEWAY_TIER = 'team gateway';

/** The ledger as hosts show it. */
export interface LedgerSnapshot {
  day: string;
  used: number;
  limit: number;
  tier: string;
  confirmed: boolean;
  remaining: number;
  resetsAt: string;
  /**
   * Behind a team gateway, which enforces the team's allowance and the caller's share: this ledger
   * then never refuses, and `limit`/`remaining` are the share's (else the team's) as the gateway stated.
   */
  viaGateway: boolean;
  /** What the gateway stated (once it has). */
  gateway?: GatewayAllowance;
}

/** The outcome of a reservation: `ok` false only on a known, spent allowance. */
export interface Reservation {
  ok: boolean;
  /** Set when an assumed allowance is exceeded: the call goes out, the user is told. */
  warning?: string;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const nextUtcMidnight = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
};

/** `X-RateLimit-Reset` as ms: epoch seconds (or ms), or an HTTP/ISO date; undefined when it says nothing usable. */
export function resetTimeOf(header: string | null | undefined, now: number): number | undefined {
  if (!header?.trim()) return undefined;
  const n = Number(header);
  const at = Number.isFinite(n) ? (n > 1e12 ? n : n * 1000) : Date.parse(header);
  // A reset in the past, or more than two days ahead, is not a daily reset time.
  return Number.isFinite(at) && at > now - 60_000 && at < now + 2 * 86_400_000 ? at : undefined;
}

/**
 * The caller's daily allowance, reserved before each network call and persisted, so that when a
 * known allowance is spent no request is sent at all. The allowance starts as assumed (from the
 * tier the caller gave, or the spec's numbers) and becomes known when the service states it:
 * rate-limit headers, whoami, or a 429. An assumed allowance never refuses a call — a Pro key on a
 * service that sends no headers must not be held to the free tier's 10 calls — it only warns.
 * Every change is a read-modify-write of the stored state, locked across processes when the store
 * can (the CLI's directory: several CLIs, kernels and the Jupyter relay spend one allowance), and
 * never held across a network call. The day ends when the service said it resets, else at UTC
 * midnight. Reservations never wait on each other's answers: concurrent first calls go out together.
 * Behind a team gateway (its answers say so) the ledger counts and refuses nothing: the gateway
 * enforces the team's allowance and the caller's share, and the ledger keeps what it states.
 */
export class QuotaLedger {
  #state: LedgerState | undefined;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: KeyValueStore,
    readonly callerId: string,
    private readonly opts: {
      tier?: string;
      now?: () => number;
      /** The allowance of `tier` is known (the caller has it from the service), not assumed. */
      confirmed?: boolean;
      allowance?: Record<string, number>;
    } = {},
  ) {}

  get #storeKey(): string {
    return `dchub:quota:${this.callerId}`;
  }
  #now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** The state as stored (or this process's last one), rolled over to a new day when the old one ended. */
  #current(stored: string | undefined): LedgerState {
    let s: LedgerState | undefined;
    try {
      s = (JSON.parse(stored ?? 'null') as LedgerState | null) ?? undefined;
    } catch {
      s = undefined;
    }
    if (!s && !this.store.shared) s = this.#state;
    const now = this.#now();
    const day = utcDay(now);
    const tier = s?.tier ?? this.opts.tier ?? 'anonymous';
    const ended = s && (s.resetAt !== undefined ? now >= s.resetAt : s.day !== day);
    if (!s || ended) {
      const known = s ? s.known === true : this.opts.confirmed === true;
      const limit = s?.limit ?? (this.opts.allowance ?? DAILY_ALLOWANCE)[tier] ?? 10;
      // Behind a gateway it stays so across days (the gateway's own figures roll over in `#snap`).
      const gateway = s?.viaGateway ? { viaGateway: true, ...(s.gateway ? { gateway: s.gateway } : {}) } : {};
      s = { day, used: 0, limit, tier, known, ...gateway };
    }
    return s;
  }

  /** Serializes this process's changes (the store's lock serializes processes). */
  #locked<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(fn, fn);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  /** Applies `change` to the current state under the store's lock and keeps the result; `read` only reads. */
  #mutate<T>(change: (s: LedgerState) => T, opts: { read?: boolean } = {}): Promise<T> {
    return this.#locked(async () => {
      let out!: T;
      const apply = (text: string | undefined): string | undefined => {
        const s = this.#current(text);
        out = change(s);
        this.#state = s;
        return opts.read ? undefined : JSON.stringify(s);
      };
      if (!opts.read && this.store.update) await this.store.update(this.#storeKey, apply);
      else {
        const next = apply(await this.store.get(this.#storeKey));
        if (next !== undefined) await this.store.set(this.#storeKey, next);
      }
      return out;
    });
  }

  /** Calls left today (by the known or the assumed allowance, or the gateway's; see `snapshot()`). */
  async remaining(): Promise<number> {
    return this.#mutate((s) => this.#snap(s).remaining, { read: true });
  }

  async snapshot(): Promise<LedgerSnapshot> {
    return this.#mutate((s) => this.#snap(s), { read: true });
  }

  /** The snapshot of a state read elsewhere (with other values in one round trip), without I/O. */
  snapshotOf(stored: string | undefined): LedgerSnapshot {
    return this.#snap(this.#current(stored));
  }

  #snap(s: LedgerState): LedgerSnapshot {
    const now = this.#now();
    const viaGateway = s.viaGateway === true;
    if (viaGateway && s.gateway) {
      // The gateway's figures: the caller's share when it has one (the team's beside it), else the team's.
      const g = gatewayAllowanceAt(s.gateway, now, nextUtcMidnight(now));
      const limit = g.shareLimit ?? g.teamLimit;
      const left = g.shareRemaining ?? g.teamRemaining;
      return {
        day: s.day,
        used: Math.max(0, limit - left),
        limit,
        tier: GATEWAY_TIER,
        confirmed: true,
        remaining: Math.min(left, g.teamRemaining),
        resetsAt: g.resetsAt,
        viaGateway,
        gateway: g,
      };
    }
    return {
      day: s.day,
      used: s.used,
      limit: s.limit,
      tier: viaGateway ? GATEWAY_TIER : s.tier,
      confirmed: s.known === true,
      remaining: Math.max(0, s.limit - s.used),
      resetsAt: new Date(s.resetAt ?? nextUtcMidnight(now)).toISOString(),
      viaGateway,
    };
  }

  /** Where the state is stored (read it with other values; `snapshotOf` reads it). */
  get storeKey(): string {
    return this.#storeKey;
  }

  /** Reserves `n` calls; false (and nothing reserved) only when a known allowance cannot cover them. */
  async reserve(n = 1): Promise<boolean> {
    return (await this.reserveCall(n)).ok;
  }

  /** Like reserve, with the warning to show when an assumed allowance is exceeded. */
  async reserveCall(n = 1): Promise<Reservation> {
    return this.#mutate((s): Reservation => {
      // Behind a gateway nothing is counted here: it counts the team's allowance and the caller's share,
      // and answers from its cache, at no cost, calls this count would have refused.
      if (s.viaGateway) return { ok: true };
      const over = s.used + n > s.limit;
      if (over && s.known) return { ok: false };
      s.used += n;
      return over
        ? {
            ok: true,
            warning: `more than the assumed ${s.limit} calls a day (${s.tier} tier) were used; the service has not stated its limit, so calls continue`,
          }
        : { ok: true };
    });
  }

  /** Counts calls made without this ledger (a replica that could not reach it): spent all the same. */
  async record(n: number): Promise<void> {
    if (n > 0)
      await this.#mutate((s) => {
        s.used += n;
      });
  }

  /** Gives back a reservation whose request never reached the service. */
  async release(n = 1): Promise<void> {
    await this.#mutate((s) => {
      if (!s.viaGateway) s.used = Math.max(0, s.used - n);
    });
  }

  /**
   * Lets the server's rate-limit headers correct the ledger (called after every answer). A stated
   * count only ever raises `used`: answers arrive out of order, and calls reserved by this and other
   * processes may be on their way, unseen by the service yet.
   */
  async correct(headers: Headers): Promise<void> {
    if (await this.learnGateway(headers)) return;
    const limit = Number(headers.get('x-ratelimit-limit'));
    const remaining = Number(headers.get('x-ratelimit-remaining'));
    const tier = headers.get('x-ratelimit-tier');
    const hasLimit = headers.has('x-ratelimit-limit') && Number.isFinite(limit) && limit > 0;
    // A per-minute Remaining without a daily Limit (the real token bucket) says nothing about the day.
    if (!hasLimit && !tier) return;
    const resetAt = resetTimeOf(headers.get('x-ratelimit-reset'), this.#now());
    await this.#mutate((s) => {
      if (tier) s.tier = tier;
      if (hasLimit) {
        s.limit = limit;
        s.known = true;
        if (resetAt !== undefined) s.resetAt = resetAt;
        // Remaining counts the day only beside a Reset (the real service's bare Remaining is its per-minute bucket).
        if (Number.isFinite(remaining) && headers.has('x-ratelimit-remaining') && headers.has('x-ratelimit-reset')) {
          s.used = Math.max(s.used, s.limit - remaining);
        }
      }
    });
  }

  /**
   * Whether the answer came from a team gateway, and what it stated (kept): true when it did. An
   * answer without the gateway's header from a ledger's service that was one says it is one no more.
   */
  async learnGateway(headers: Headers): Promise<boolean> {
    const isGateway = isGatewayAnswer(headers);
    // Read from this process's last state: the team's own ledger, behind no gateway, pays no extra round trip.
    if (!isGateway && !this.#state?.viaGateway) return false;
    const stated = readGatewayAllowance(headers);
    await this.#mutate((s) => {
      if (!isGateway) {
        delete s.viaGateway;
        delete s.gateway;
        return;
      }
      s.viaGateway = true;
      if (stated) s.gateway = mergeGatewayAllowance(s.gateway, stated);
    });
    return isGateway;
  }

  /** The service stated the calls left (whoami); the allowance becomes known. */
  async confirm(facts: { tier?: string; limit?: number; remaining?: number }): Promise<void> {
    await this.#mutate((s) => {
      // Behind a gateway whoami speaks of the organisation's key: the gateway's figures stand.
      if (s.viaGateway) return;
      if (facts.tier) s.tier = facts.tier;
      if (facts.limit !== undefined && facts.limit > 0) s.limit = facts.limit;
      if (facts.remaining !== undefined && facts.remaining >= 0) {
        if (facts.limit === undefined && s.used + facts.remaining > s.limit) s.limit = s.used + facts.remaining;
        s.used = Math.max(0, s.limit - facts.remaining);
      }
      s.known = true;
    });
  }

  /**
   * The server said the allowance is spent (429): the day is used up, until `resetAt` when it said.
   * Not behind a gateway: its 429 speaks of one share or one question, and it still answers from its cache.
   */
  async exhaust(resetAt?: string | number): Promise<void> {
    const at = typeof resetAt === 'number' ? resetAt : resetAt ? Date.parse(resetAt) : undefined;
    await this.#mutate((s) => {
      if (s.viaGateway) return;
      s.used = s.limit;
      s.known = true;
      if (at !== undefined && Number.isFinite(at) && at > this.#now()) s.resetAt = at;
    });
  }
}
