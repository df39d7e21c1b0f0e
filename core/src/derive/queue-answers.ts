import type { CallOptions, DchubClient, Fetched } from '../client.js';
import { NetworkError, NotCachedError, QuotaSpentError, RateLimitError, ServerError } from '../errors.js';
import { QueueFilters, QueueResult, queueSearchParams, type QueueFiltersT, type QueueResultT } from '../schemas/queue.js';
import { deriveQueueAnswer, sourceProblem, whyNotWider, widenQueueFilters, type Derived } from './queue.js';
import { cachedSources, deliverDerived, deriveModeOf, freshCached, isAbort, noteSource, previewsSeen } from './sources.js';
import { isPreview } from './values.js';

export const QUEUE_PATH = '/api/v1/interconnection-queue/refined';

/** Filters of a noted source, from its canonical query string. */
function filtersOf(query: string): QueueFiltersT | undefined {
  const r = QueueFilters.safeParse(Object.fromEntries(new URLSearchParams(query)));
  return r.success ? r.data : undefined;
}

/** Derived answers per source answer and question: repeated cells cost one lookup. */
const MEMO = new WeakMap<object, Map<string, Derived<QueueResultT>>>();

function deriveMemo(source: QueueResultT, g: QueueFiltersT, f: QueueFiltersT, fQuery: string): Derived<QueueResultT> {
  let byQuestion = MEMO.get(source);
  if (!byQuestion) MEMO.set(source, (byQuestion = new Map()));
  let d = byQuestion.get(fQuery);
  if (!d) byQuestion.set(fQuery, (d = deriveQueueAnswer(source, g, f)));
  return d;
}

/** After a fetch: note a complete answer as a source (or a preview, which tells the tier). */
async function note(client: DchubClient, g: QueueFiltersT, query: string, r: Fetched<QueueResultT>): Promise<void> {
  if (r.stale) return;
  const preview = r.preview || isPreview(r.data);
  if (preview || !sourceProblem(r.data, g)) await noteSource(client, QUEUE_PATH, query, preview, r.fetchedAt);
}

/** F answered from a cached wider answer, or undefined. */
async function fromCache(client: DchubClient, f: QueueFiltersT, fQuery: string, allowStale: boolean, reason?: string): Promise<QueueResultT | undefined> {
  const wider = (q: string) => {
    const g = filtersOf(q);
    return q !== fQuery && g !== undefined && whyNotWider(g, f) === undefined;
  };
  for await (const { query, answer } of cachedSources(client, QUEUE_PATH, QueueResult, wider, allowStale)) {
    const d = deriveMemo(answer.data, filtersOf(query)!, f, fQuery);
    if (d.ok) return deliverDerived(d.value, answer, QUEUE_PATH, query, reason ? { stale: true, reason } : {});
  }
  return undefined;
}

/** Why a failed request may be answered from a stale wider answer (as the client does for its own). */
function staleReason(err: unknown): string | undefined {
  if (err instanceof QuotaSpentError) return 'daily limit reached';
  if (err instanceof RateLimitError) return 'rate limited';
  if (err instanceof NetworkError) return 'offline';
  if (err instanceof ServerError) return 'service error';
  return undefined;
}

/**
 * The refined queue for F through the derive policy: an exact fresh cached answer; else one
 * derived from a fresh cached wider answer; else (widen) the widest likely-complete request and F
 * derived from it; else the exact request. A failure falls back to a stale wider answer.
 */
export async function answerQueue(client: DchubClient, f: QueueFiltersT, opts: CallOptions = {}): Promise<QueueResultT> {
  opts.signal?.throwIfAborted();
  const params = queueSearchParams(f);
  const fQuery = params.toString();
  const exact = async () => {
    const r = await client.fetchJson(QUEUE_PATH, QueueResult, params, opts);
    await note(client, f, fQuery, r);
    return r.data;
  };
  const mode = opts.cache === false || opts.refresh ? 'off' : await deriveModeOf(client);
  if (mode === 'off') return exact();

  const own = await freshCached(client, QUEUE_PATH, QueueResult, fQuery);
  if (own) return own.data;
  const local = await fromCache(client, f, fQuery, false);
  if (local) return local;

  if (opts.cacheOnly) {
    try {
      return await exact();
    } catch (err) {
      if (err instanceof NotCachedError) return (await fromCache(client, f, fQuery, true, 'not refreshed in preview')) ?? Promise.reject(err);
      throw err;
    }
  }

  if (mode === 'widen') {
    const w = widenQueueFilters(f);
    const wParams = queueSearchParams(w);
    const wQuery = wParams.toString();
    if (wQuery !== fQuery && !(await previewsSeen(client, QUEUE_PATH, QueueResult))) {
      try {
        const wide = await client.fetchJson(QUEUE_PATH, QueueResult, wParams, opts);
        await note(client, w, wQuery, wide);
        if (!wide.stale) {
          const d = deriveMemo(wide.data, w, f, fQuery);
          if (d.ok) return deliverDerived(d.value, wide, QUEUE_PATH, wQuery);
        }
      } catch (err) {
        if (isAbort(err)) throw err;
        // The wide request failed: the exact one below decides (and may serve a stale answer).
      }
    }
  }

  try {
    return await exact();
  } catch (err) {
    const reason = staleReason(err);
    const stale = reason ? await fromCache(client, f, fQuery, true, reason) : undefined;
    if (stale) return stale;
    throw err;
  }
}
