import type { Authenticated } from './auth.js';

/**
 * Tokens this replica verified with Redis lately (by hash, never the token), so that it can still
 * tell its callers from strangers while Redis is unreachable. "Lately" is measured up to the moment
 * Redis was lost: a token verified in the ten minutes before the outage is served through it; one
 * this replica had not seen gets a 503, never a 401 (only Redis can say a token does not exist). A
 * revocation takes effect on this replica once Redis is back (its next lookup forgets the token).
 */
export interface Remembered {
  auth: Authenticated;
  /** The key of the token's call counter today (calls answered without Redis are added to it later). */
  counterKey: string;
  verifiedAt: number;
}

export const RECENT_TOKEN_MS = 10 * 60_000;

export class RecentTokens {
  readonly #byHash = new Map<string, Remembered>();

  constructor(
    readonly ttlMs = RECENT_TOKEN_MS,
    readonly maxEntries = 10_000,
  ) {}

  remember(hash: string, entry: Remembered): void {
    this.#byHash.delete(hash);
    this.#byHash.set(hash, entry);
    if (this.#byHash.size > this.maxEntries) this.#byHash.delete(this.#byHash.keys().next().value!);
  }

  /** Redis says the token does not exist (revoked, or never issued). */
  forget(hash: string): void {
    this.#byHash.delete(hash);
  }

  /** The token's entry if it was verified within the memory's span before `asOf` (when Redis was lost). */
  recall(hash: string, asOf: number): Remembered | undefined {
    const e = this.#byHash.get(hash);
    if (!e) return undefined;
    if (e.verifiedAt < asOf - this.ttlMs) {
      this.#byHash.delete(hash);
      return undefined;
    }
    return e;
  }

  get size(): number {
    return this.#byHash.size;
  }
}
