import { AsyncLocalStorage } from 'node:async_hooks';
import {
  DchubClient,
  MCP_DAILY_ALLOWANCE,
  QuotaLedger,
  QuotaSpentError,
  ResponseCache,
  callerLedgerId,
  type DeriveMode,
  type KeyValueStore,
  type LedgerSnapshot,
} from '@dchub/core';
import type { RelayCaller } from '@dchub/core/node';

/**
 * The organisation as one caller of the service: one client (the organisation's key, one cache,
 * one daily ledger, one derive index) over a store every replica shares, and each call made on
 * behalf of a gateway caller whose daily share is counted beside the team's allowance.
 */

/** Who is calling through the gateway (a token's name, or an OIDC subject). */
export interface GatewayCaller {
  name: string;
  /** Upstream requests a day this caller may cause; undefined: no share of its own. */
  share?: number;
  /** The ledger id of the caller's share (from its token's hash, or its OIDC subject). */
  shareId: string;
}

/** What a call carries through core (AsyncLocalStorage): the caller, whose share reservations count against. */
export interface CallContext {
  caller: GatewayCaller;
  share?: QuotaLedger;
  /** A Redis command of this call failed (set by the shared store): the call is answered again locally. */
  sharedFailure?: Error;
}

/**
 * What a replica may spend while it works without Redis (degraded.ts): asked before any other
 * reservation, so a call past it never touches a ledger; it throws the refusal itself.
 */
export interface SpendGate {
  take(ledgerId: string, caller: GatewayCaller | undefined, n: number): void;
  give(ledgerId: string, caller: GatewayCaller | undefined, n: number): void;
}

/** A caller's share is spent: refused like a spent allowance (429 with the reset time), in its own words. */
export class ShareSpentError extends QuotaSpentError {
  readonly shareOf: string;
  constructor(name: string, limit: number, resetAt: string) {
    super(limit, resetAt);
    this.shareOf = name;
    this.message = `the daily share of ${limit} upstream requests of ${name} is spent; it resets at ${resetAt} (answers the gateway already holds are still served)`;
  }
}

/**
 * The team's daily ledger, which also reserves the current caller's share (first, so a caller past
 * its share never touches the team's allowance). Reservations are core's compare-and-set on the
 * shared store: any number of replicas never reserve more than the service stated.
 */
export class TeamLedger extends QuotaLedger {
  constructor(
    store: KeyValueStore,
    id: string,
    opts: ConstructorParameters<typeof QuotaLedger>[2],
    private readonly calls: AsyncLocalStorage<CallContext>,
    private readonly gate?: SpendGate,
  ) {
    super(store, id, opts);
  }

  override async reserveCall(n = 1): ReturnType<QuotaLedger['reserveCall']> {
    const ctx = this.calls.getStore();
    this.gate?.take(this.callerId, ctx?.caller, n);
    const giveBack = () => this.gate?.give(this.callerId, ctx?.caller, n);
    const share = ctx?.share;
    if (share) {
      const r = await share.reserveCall(n).catch((err: unknown) => {
        giveBack();
        throw err;
      });
      if (!r.ok) {
        giveBack();
        const s = await share.snapshot();
        throw new ShareSpentError(ctx.caller.name, s.limit, s.resetsAt);
      }
    }
    try {
      const r = await super.reserveCall(n);
      if (!r.ok) {
        giveBack();
        await share?.release(n);
      }
      return r;
    } catch (err) {
      giveBack();
      await share?.release(n).catch(() => undefined);
      throw err;
    }
  }

  override async release(n = 1): Promise<void> {
    const ctx = this.calls.getStore();
    this.gate?.give(this.callerId, ctx?.caller, n);
    await super.release(n);
    await ctx?.share?.release(n);
  }
}

export interface TeamOptions {
  store: KeyValueStore;
  baseUrl: string;
  apiKey: string | undefined;
  tier?: string;
  derive?: DeriveMode;
  timeoutMs: number;
  now?: () => number;
  /** The replica's budget while it works without Redis (only the local team has one). */
  gate?: SpendGate;
  /** Hears of every request sent upstream (metrics): on whose behalf, its status (0: no answer), how long. */
  onUpstream?: (caller: GatewayCaller | undefined, status: number, seconds: number) => void;
}

/** The organisation's caller: what core's relay answers through, and the ledgers of its callers' shares. */
export class Team implements RelayCaller {
  readonly calls = new AsyncLocalStorage<CallContext>();
  readonly client: DchubClient;
  readonly store: KeyValueStore;
  readonly ledger: TeamLedger;
  /** MCP tool calls have their own daily allowance (spec §8.1); the caller's share counts both. */
  readonly mcpLedger: TeamLedger;
  readonly hasKey: boolean;
  readonly #apiKey: string | undefined;
  readonly #now: () => number;

  constructor(opts: TeamOptions) {
    this.store = opts.store;
    this.#apiKey = opts.apiKey;
    this.hasKey = opts.apiKey !== undefined;
    this.#now = opts.now ?? (() => Date.now());
    const id = callerLedgerId(opts.baseUrl, opts.apiKey);
    const tier = opts.tier ?? (opts.apiKey ? 'free' : 'anonymous');
    // A stated tier is taken as known; otherwise assumed until the service states it (it does to keyed callers).
    const base = { tier, confirmed: opts.tier !== undefined, now: this.#now };
    this.ledger = new TeamLedger(opts.store, id, base, this.calls, opts.gate);
    const mcpBase = { ...base, allowance: MCP_DAILY_ALLOWANCE };
    this.mcpLedger = new TeamLedger(opts.store, `${id}:mcp`, mcpBase, this.calls, opts.gate);
    this.client = new DchubClient({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      cache: new ResponseCache(opts.store),
      ledger: this.ledger,
      derive: opts.derive,
      timeoutMs: opts.timeoutMs,
      now: this.#now,
      ...(opts.onUpstream ? { fetch: this.#observed(opts.onUpstream) } : {}),
    });
  }

  /** The global fetch, telling `onUpstream` of each request (the caller from the call's context). */
  #observed(onUpstream: NonNullable<TeamOptions['onUpstream']>): typeof fetch {
    return async (input, init) => {
      const caller = this.calls.getStore()?.caller;
      const started = performance.now();
      try {
        const res = await fetch(input, init);
        onUpstream(caller, res.status, (performance.now() - started) / 1000);
        return res;
      } catch (err) {
        onUpstream(caller, 0, (performance.now() - started) / 1000);
        throw err;
      }
    };
  }

  /** The key, only to keep it out of what goes back (RelayCaller). */
  get secret(): string | undefined {
    return this.#apiKey;
  }

  /** The ledger of a caller's daily share (known: the admin stated it), or undefined without one. */
  shareLedger(caller: GatewayCaller): QuotaLedger | undefined {
    if (!caller.share) return undefined;
    return new QuotaLedger(this.store, caller.shareId, {
      tier: 'share',
      allowance: { share: caller.share },
      confirmed: true,
      now: this.#now,
    });
  }

  /** Runs `fn` on behalf of `caller`: what it spends is reserved against the caller's share too. */
  run<T>(caller: GatewayCaller, fn: () => Promise<T>): Promise<T> {
    return this.calls.run({ caller, share: this.shareLedger(caller) }, fn);
  }

  /** The team's allowance and the caller's share, from states read elsewhere (no I/O). */
  allowances(
    caller: GatewayCaller,
    states: { team?: string; share?: string },
  ): { team: LedgerSnapshot; share?: LedgerSnapshot } {
    const share = this.shareLedger(caller);
    return {
      team: this.ledger.snapshotOf(states.team),
      ...(share ? { share: share.snapshotOf(states.share) } : {}),
    };
  }
}
