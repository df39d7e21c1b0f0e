import { ServerError } from '@dchub/core';
import type { GatewayCaller, SpendGate } from './team.js';

/**
 * What one replica may spend, and has spent, while it works without Redis (the "degraded" mode).
 *
 * An episode opens at the first call answered without Redis and closes once what it spent is
 * written back to the team's ledgers. Its budget is fixed when it opens: floor(fraction × the
 * team's allowance left as this replica last read it from Redis), or, when it never read it,
 * fraction × the assumed allowance of the configured tier. Each caller with a daily share may spend
 * ⌈fraction × its share left as last read⌉ of that (at least one request while any is left, never
 * more than is left); the team's budget bounds them all. Several replicas without Redis each spend
 * their own budget: the admin keeps fraction × replicas below 1 (docs/gateway.md).
 */

/** The answer when the budget (the team's, or a caller's part of it) is spent: 503, as temporary as the outage. */
export class DegradedSpentError extends ServerError {
  constructor(message: string) {
    super(message, { status: 503, body: { error: 'gateway_degraded', message, degraded: true } });
  }
}

interface ShareSpend {
  caller: GatewayCaller;
  budget: number;
  /** Upstream requests this episode (net of give-backs). */
  spent: number;
  /** Of those, not yet written back to the caller's share in Redis. */
  unrecorded: number;
}

/** What an episode spent that Redis has not counted yet: by ledger id, by caller's share, calls by counter key. */
export interface UnrecordedSpend {
  ledgers: Map<string, number>;
  shares: Map<string, { caller: GatewayCaller; n: number }>;
  calls: Map<string, number>;
}

const addTo = (m: Map<string, number>, k: string, n: number) => {
  const v = (m.get(k) ?? 0) + n;
  if (v > 0) m.set(k, v);
  else m.delete(k);
};

export class DegradedSpend implements SpendGate {
  #budget: number | undefined;
  #spent = 0;
  readonly #ledgers = new Map<string, number>();
  readonly #shares = new Map<string, ShareSpend>();
  readonly #calls = new Map<string, number>();
  /** The team's allowance left, and each share's, as last read from Redis. */
  #teamLeft: number | undefined;
  readonly #shareLeft = new Map<string, number>();
  /** Calls being answered without Redis right now (an episode closes only when none is). */
  inFlight = 0;

  constructor(
    readonly fraction: number,
    /** The configured tier's assumed allowance: the base before the team's was ever read. */
    private readonly assumedLimit: number,
  ) {}

  /** What Redis said is left (each authenticated call brings it): the base of the next episode's budget. */
  seen(teamLeft: number, share?: { id: string; left: number }): void {
    this.#teamLeft = teamLeft;
    if (share) this.#shareLeft.set(share.id, share.left);
  }

  /** The budget an episode opened now would have. */
  #nextBudget(): number {
    return Math.floor(this.fraction * (this.#teamLeft ?? this.assumedLimit));
  }

  /** Opens an episode (its budget fixed now) unless one is open. */
  open(): void {
    this.#budget ??= this.#nextBudget();
  }

  get isOpen(): boolean {
    return this.#budget !== undefined;
  }
  /** This episode's budget (upstream requests), or undefined when none is open. */
  get budget(): number | undefined {
    return this.#budget;
  }
  /** Upstream requests this replica may still make in this episode (or in one opened now). */
  get left(): number {
    return Math.max(0, (this.#budget ?? this.#nextBudget()) - this.#spent);
  }
  get spent(): number {
    return this.#spent;
  }
  /** Upstream requests of this episode spent on `shareId`'s share. */
  spentBy(shareId: string): number {
    return this.#shares.get(shareId)?.spent ?? 0;
  }

  #shareOf(caller: GatewayCaller): ShareSpend {
    let s = this.#shares.get(caller.shareId);
    if (!s) {
      const left = this.#shareLeft.get(caller.shareId) ?? caller.share ?? 0;
      s = { caller, budget: left > 0 ? Math.ceil(this.fraction * left) : 0, spent: 0, unrecorded: 0 };
      this.#shares.set(caller.shareId, s);
    }
    return s;
  }

  take(ledgerId: string, caller: GatewayCaller | undefined, n: number): void {
    this.open();
    if (this.#spent + n > this.#budget!)
      throw new DegradedSpentError(
        `this gateway replica cannot reach the team's shared state (Redis) and has made the ${this.#budget} upstream requests it may make until Redis is back; answers it already holds are still served`,
      );
    const share = caller?.share ? this.#shareOf(caller) : undefined;
    if (share && share.spent + n > share.budget)
      throw new DegradedSpentError(
        `while the gateway cannot reach Redis, ${share.caller.name} may make ${share.budget} upstream requests through this replica (a part of its daily share), and has; answers the gateway already holds are still served`,
      );
    this.#spent += n;
    addTo(this.#ledgers, ledgerId, n);
    if (share) {
      share.spent += n;
      share.unrecorded += n;
    }
  }

  give(ledgerId: string, caller: GatewayCaller | undefined, n: number): void {
    this.#spent = Math.max(0, this.#spent - n);
    addTo(this.#ledgers, ledgerId, -n);
    const share = caller?.share ? this.#shares.get(caller.shareId) : undefined;
    if (share) {
      share.spent = Math.max(0, share.spent - n);
      share.unrecorded = Math.max(0, share.unrecorded - n);
    }
  }

  /** A call answered without Redis, to add to the caller's count of today's calls. */
  countCall(counterKey: string): void {
    addTo(this.#calls, counterKey, 1);
  }

  get hasUnrecorded(): boolean {
    return this.#ledgers.size > 0 || this.#calls.size > 0 || [...this.#shares.values()].some((s) => s.unrecorded > 0);
  }

  /** Takes what is not written back yet (so it is written once); `restore` puts back a part whose writing failed. */
  takeUnrecorded(): UnrecordedSpend {
    const out: UnrecordedSpend = { ledgers: new Map(this.#ledgers), shares: new Map(), calls: new Map(this.#calls) };
    this.#ledgers.clear();
    this.#calls.clear();
    for (const [id, s] of this.#shares)
      if (s.unrecorded > 0) {
        out.shares.set(id, { caller: s.caller, n: s.unrecorded });
        s.unrecorded = 0;
      }
    return out;
  }

  restore(part: Partial<UnrecordedSpend>): void {
    for (const [k, n] of part.ledgers ?? []) addTo(this.#ledgers, k, n);
    for (const [k, n] of part.calls ?? []) addTo(this.#calls, k, n);
    for (const [, { caller, n }] of part.shares ?? []) this.#shareOf(caller).unrecorded += n;
  }

  /** Ends the episode once everything is written back and no call runs without Redis. */
  closeIfSettled(): boolean {
    if (this.inFlight > 0 || this.hasUnrecorded) return false;
    this.#budget = undefined;
    this.#spent = 0;
    this.#shares.clear();
    return true;
  }
}
