import { MCP_DAILY_CALLS, REST_DAILY_REQUESTS } from '../plans.js';
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
}

/** The outcome of a reservation: `ok` false only on a known, spent allowance. */
export interface Reservation {
  ok: boolean;
  /** Set when an assumed allowance is exceeded: the call goes out, the user is told. */
  warning?: string;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The caller's daily allowance, reserved before each network call and persisted, so that when a
 * known allowance is spent no request is sent at all. The allowance starts as assumed (from the
 * tier the caller gave, or the spec's numbers) and becomes known when the service states it:
 * rate-limit headers, whoami, or a 429. An assumed allowance never refuses a call — a Pro key on a
 * service that sends no headers must not be held to the free tier's 10 calls — it only warns.
 * Reservations never wait on each other's answers: concurrent first calls go out together.
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

  async #load(): Promise<LedgerState> {
    const day = utcDay(this.#now());
    // A shared store is the truth: another process may have spent calls since the last look.
    if (!this.#state || this.store.shared) {
      try {
        this.#state = (JSON.parse((await this.store.get(this.#storeKey)) ?? 'null') as LedgerState | null) ?? (this.store.shared ? undefined : this.#state);
      } catch {
        this.#state = undefined;
      }
    }
    const tier = this.#state?.tier ?? this.opts.tier ?? 'anonymous';
    if (!this.#state || this.#state.day !== day) {
      const known = this.#state ? this.#state.known === true : this.opts.confirmed === true;
      this.#state = { day, used: 0, limit: this.#state?.limit ?? (this.opts.allowance ?? DAILY_ALLOWANCE)[tier] ?? 10, tier, known };
    }
    return this.#state;
  }

  /** Serializes updates: concurrent calls must not both take the last call. */
  #locked<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(fn, fn);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #save(): Promise<void> {
    await this.store.set(this.#storeKey, JSON.stringify(this.#state));
  }

  /** Calls left today (by the known or the assumed allowance; see `snapshot().confirmed`). */
  async remaining(): Promise<number> {
    return this.#locked(async () => {
      const s = await this.#load();
      return Math.max(0, s.limit - s.used);
    });
  }

  async snapshot(): Promise<{ day: string; used: number; limit: number; tier: string; confirmed: boolean; remaining: number; resetsAt: string }> {
    return this.#locked(async () => {
      const s = await this.#load();
      const d = new Date(this.#now());
      const resetsAt = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
      return { day: s.day, used: s.used, limit: s.limit, tier: s.tier, confirmed: s.known === true, remaining: Math.max(0, s.limit - s.used), resetsAt };
    });
  }

  /** Reserves `n` calls; false (and nothing reserved) only when a known allowance cannot cover them. */
  async reserve(n = 1): Promise<boolean> {
    return (await this.reserveCall(n)).ok;
  }

  /** Like reserve, with the warning to show when an assumed allowance is exceeded. */
  async reserveCall(n = 1): Promise<Reservation> {
    return this.#locked(async () => {
      const s = await this.#load();
      const over = s.used + n > s.limit;
      if (over && s.known) return { ok: false };
      s.used += n;
      await this.#save();
      return over
        ? {
            ok: true,
            warning: `more than the assumed ${s.limit} calls a day (${s.tier} tier) were used; the service has not stated its limit, so calls continue`,
          }
        : { ok: true };
    });
  }

  /** Gives back a reservation whose request never reached the service. */
  async release(n = 1): Promise<void> {
    await this.#locked(async () => {
      const s = await this.#load();
      s.used = Math.max(0, s.used - n);
      await this.#save();
    });
  }

  /** Lets the server's rate-limit headers correct the ledger (called after every answer). */
  async correct(headers: Headers): Promise<void> {
    const limit = Number(headers.get('x-ratelimit-limit'));
    const remaining = Number(headers.get('x-ratelimit-remaining'));
    const tier = headers.get('x-ratelimit-tier');
    const hasLimit = headers.has('x-ratelimit-limit') && Number.isFinite(limit) && limit > 0;
    // A per-minute Remaining without a daily Limit (the real token bucket) says nothing about the day.
    if (!hasLimit && !tier) return;
    await this.#locked(async () => {
      const s = await this.#load();
      if (tier) s.tier = tier;
      if (hasLimit) {
        s.limit = limit;
        s.known = true;
        // Remaining counts the day only beside a Reset (the real service's bare Remaining is its per-minute bucket).
        if (Number.isFinite(remaining) && headers.has('x-ratelimit-remaining') && headers.has('x-ratelimit-reset')) s.used = Math.max(0, s.limit - remaining);
      }
      await this.#save();
    });
  }

  /** The service stated the calls left (whoami); the allowance becomes known. */
  async confirm(facts: { tier?: string; limit?: number; remaining?: number }): Promise<void> {
    await this.#locked(async () => {
      const s = await this.#load();
      if (facts.tier) s.tier = facts.tier;
      if (facts.limit !== undefined && facts.limit > 0) s.limit = facts.limit;
      if (facts.remaining !== undefined && facts.remaining >= 0) {
        if (facts.limit === undefined && s.used + facts.remaining > s.limit) s.limit = s.used + facts.remaining;
        s.used = Math.max(0, s.limit - facts.remaining);
      }
      s.known = true;
      await this.#save();
    });
  }

  /** The server said the allowance is spent (429): mark the day used up. */
  async exhaust(): Promise<void> {
    await this.#locked(async () => {
      const s = await this.#load();
      s.used = s.limit;
      s.known = true;
      await this.#save();
    });
  }
}
