import type { CallOptions, DchubClient } from '../client.js';
import { NotCachedError } from '../errors.js';
import { staleReason } from '../cache/stale.js';
import { deriveModeOf, isAbort } from './sources.js';

/** The steps of one question under the derive policy (queue subsumption, lists that answer items). */
export interface DeriveSteps<T> {
  /** The exact request, through the client (its cache, ledger and shared in-flight requests). */
  exact: () => Promise<T>;
  /** The question's own fresh cached answer, without sending. */
  own: () => Promise<T | undefined>;
  /** An answer derived from fresh cached sources; with `staleReason`, from stale ones marked so. */
  local: (staleReason?: string) => Promise<T | undefined>;
  /** Widen mode: the wider request and the answer derived from it; undefined when it cannot serve. */
  widen: () => Promise<T | undefined>;
}

/**
 * One question through the derive setting: its own fresh cached answer; else one derived from a
 * fresh cached wider answer; else (widen) the wider request; else the exact request. In formula
 * value preview (cache only) stale sources serve too; when the exact request fails for want of
 * calls or of the service, a stale wider answer serves, marked stale.
 */
export async function answerThrough<T>(client: DchubClient, opts: CallOptions, steps: DeriveSteps<T>): Promise<T> {
  opts.signal?.throwIfAborted();
  const mode = opts.cache === false || opts.refresh ? 'off' : await deriveModeOf(client);
  if (mode === 'off') return steps.exact();
  const ready = (await steps.own()) ?? (await steps.local());
  if (ready !== undefined) return ready;
  if (opts.cacheOnly) {
    try {
      return await steps.exact();
    } catch (err) {
      if (err instanceof NotCachedError) return (await steps.local('not refreshed in preview')) ?? Promise.reject(err);
      throw err;
    }
  }
  if (mode === 'widen') {
    try {
      const wide = await steps.widen();
      if (wide !== undefined) return wide;
    } catch (err) {
      if (isAbort(err)) throw err;
      // The wider request failed: the exact one below decides (and may serve a stale answer).
    }
  }
  try {
    return await steps.exact();
  } catch (err) {
    const reason = staleReason(err);
    const stale = reason ? await steps.local(reason) : undefined;
    if (stale !== undefined) return stale;
    throw err;
  }
}
