import { ENDPOINTS } from '../endpoints.js';
import type { CallOptions, DchubClient, Fetched } from '../client.js';
import { readQueue } from '../read/queue.js';
import { QueueFilters, queueSearchParams, type QueueFiltersT, type QueueResultT } from '../schemas/queue.js';
import { deriveQueueAnswer, sourceProblem, whyNotWider, widenQueueFilters, type Derived } from './queue.js';
import { answerThrough } from './flow.js';
import { cachedSources, deliverDerived, freshCached, noteSource, previewsSeen } from './sources.js';
import { isPreview } from './values.js';

export const QUEUE_PATH = ENDPOINTS.queue.path;

/** Filters of a noted source, from its canonical query string. */
function filtersOf(query: string): QueueFiltersT | undefined {
  const r = QueueFilters.safeParse(Object.fromEntries(new URLSearchParams(query)));
  return r.success ? r.data : undefined;
}

/** Derived answers per source answer and question: repeated cells cost one lookup. */
const MEMO = new WeakMap<object, Map<string, Derived<QueueResultT>>>();

function deriveMemo(source: QueueResultT, g: QueueFiltersT, f: QueueFiltersT, fQuery: string): Derived<QueueResultT> {
  let byQuestion = MEMO.get(source);
  if (!byQuestion) MEMO.set(source, (byQuestion = new Map<string, Derived<QueueResultT>>()));
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
async function fromCache(
  client: DchubClient,
  f: QueueFiltersT,
  fQuery: string,
  allowStale: boolean,
  reason?: string,
): Promise<QueueResultT | undefined> {
  const wider = (q: string) => {
    const g = filtersOf(q);
    return q !== fQuery && g !== undefined && whyNotWider(g, f) === undefined;
  };
  for await (const { query, answer } of cachedSources(client, QUEUE_PATH, readQueue, wider, { allowStale })) {
    const d = deriveMemo(answer.data, filtersOf(query)!, f, fQuery);
    if (d.ok) return deliverDerived(d.value, answer, QUEUE_PATH, query, reason ? { stale: true, reason } : {});
  }
  return undefined;
}

/**
 * The refined queue for F through the derive setting (derive/flow.ts): an exact fresh cached
 * answer; else one derived from a fresh cached wider answer; else (widen) the widest
 * likely-complete request — F's ISO set and status, limit 1000 — and F derived from it; else the
 * exact request.
 */
export function answerQueue(client: DchubClient, f: QueueFiltersT, opts: CallOptions = {}): Promise<QueueResultT> {
  const params = queueSearchParams(f);
  const fQuery = params.toString();
  return answerThrough(client, opts, {
    exact: async () => {
      const r = await client.fetchJson(QUEUE_PATH, readQueue, params, opts);
      await note(client, f, fQuery, r);
      return r.data;
    },
    own: async () => (await freshCached(client, QUEUE_PATH, readQueue, fQuery))?.data,
    local: (reason) => fromCache(client, f, fQuery, reason !== undefined, reason),
    widen: async () => {
      const w = widenQueueFilters(f);
      const wParams = queueSearchParams(w);
      const wQuery = wParams.toString();
      // Nothing wider to ask, or this caller gets previews (which answer nothing but themselves).
      if (wQuery === fQuery || (await previewsSeen(client, QUEUE_PATH, readQueue))) return undefined;
      const wide = await client.fetchJson(QUEUE_PATH, readQueue, wParams, opts);
      await note(client, w, wQuery, wide);
      if (wide.stale) return undefined;
      const d = deriveMemo(wide.data, w, f, fQuery);
      return d.ok ? deliverDerived(d.value, wide, QUEUE_PATH, wQuery) : undefined;
    },
  });
}
