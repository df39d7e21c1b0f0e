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
  /** The service has answered this caller at least once, so the tier and limit are known. */
  confirmed?: boolean;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The caller's daily allowance, reserved before each network call and persisted, so that when it
 * is spent no request is sent at all. Server headers (X-RateLimit-Limit/-Remaining/-Tier), when
 * present, correct it. One ledger per caller (key fingerprint).
 */
export class QuotaLedger {
  #state: LedgerState | undefined;
  #chain: Promise<unknown> = Promise.resolve();
  /** While a key's tier is only assumed, its first call goes alone: the answer tells the allowance. */
  #gate: { promise: Promise<void>; resolve: () => void; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(
    private readonly store: KeyValueStore,
    readonly callerId: string,
    private readonly opts: { tier?: string; now?: () => number; confirmed?: boolean; allowance?: Record<string, number> } = {},
  ) {}

  get #storeKey(): string {
    return `dchub:quota:${this.callerId}`;
  }
  #now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  async #load(): Promise<LedgerState> {
    const day = utcDay(this.#now());
    if (!this.#state) {
      try {
        this.#state = JSON.parse((await this.store.get(this.#storeKey)) ?? 'null') ?? undefined;
      } catch {
        this.#state = undefined;
      }
    }
    const tier = this.#state?.tier ?? this.opts.tier ?? 'anonymous';
    if (!this.#state || this.#state.day !== day) {
      const confirmed = this.#state?.confirmed ?? (this.opts.confirmed ?? tier === 'anonymous');
      this.#state = { day, used: 0, limit: this.#state?.limit ?? (this.opts.allowance ?? DAILY_ALLOWANCE)[tier] ?? 10, tier, confirmed };
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

  /** Calls left today. */
  async remaining(): Promise<number> {
    return this.#locked(async () => {
      const s = await this.#load();
      return Math.max(0, s.limit - s.used);
    });
  }

  async snapshot(): Promise<Readonly<LedgerState> & { remaining: number; resetsAt: string }> {
    return this.#locked(async () => {
      const s = await this.#load();
      const d = new Date(this.#now());
      const resetsAt = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
      return { ...s, remaining: Math.max(0, s.limit - s.used), resetsAt };
    });
  }

  /** Reserves `n` calls; false (and nothing reserved) when the allowance cannot cover them. */
  async reserve(n = 1): Promise<boolean> {
    for (;;) {
      if (this.#gate) await this.#gate.promise;
      const r = await this.#locked(async () => {
        const s = await this.#load();
        if (!s.confirmed && this.#gate) return 'wait' as const;
        if (s.used + n > s.limit) return false;
        s.used += n;
        await this.#save();
        if (!s.confirmed) this.#openGate();
        return true;
      });
      if (r !== 'wait') return r;
    }
  }

  #openGate(): void {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    // Never hold calls back for long if the first answer gets lost.
    const timer = setTimeout(() => this.#closeGate(), 15_000);
    this.#gate = { promise, resolve, timer };
  }

  #closeGate(): void {
    const g = this.#gate;
    if (!g) return;
    this.#gate = undefined;
    clearTimeout(g.timer);
    g.resolve();
  }

  /** Gives back a reservation whose request never reached the service. */
  async release(n = 1): Promise<void> {
    this.#closeGate();
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
    const informative = headers.has('x-ratelimit-limit') || headers.has('x-ratelimit-remaining') || !!tier;
    await this.#locked(async () => {
      const s = await this.#load();
      const first = !s.confirmed;
      s.confirmed = true;
      if (!informative) {
        if (first) await this.#save();
        return;
      }
      if (tier) s.tier = tier;
      if (Number.isFinite(limit) && limit > 0) s.limit = limit;
      if (Number.isFinite(remaining) && headers.has('x-ratelimit-remaining')) s.used = Math.max(0, s.limit - remaining);
      await this.#save();
    });
    this.#closeGate();
  }

  /** The server said the allowance is spent (429): mark the day used up. */
  async exhaust(): Promise<void> {
    await this.#locked(async () => {
      const s = await this.#load();
      s.used = s.limit;
      s.confirmed = true;
      await this.#save();
    });
    this.#closeGate();
  }
}
