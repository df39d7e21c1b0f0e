import { attachFetchMeta, type AnswerReader, type DchubClient, type FetchMeta, type Fetched } from '../client.js';
import { cacheKey } from '../cache/keys.js';
import type { ResponseCache } from '../cache/responses.js';
import { defaultDeriveMode, type DeriveMode } from './policy.js';

/**
 * Which cached answers may serve other questions: a small index per caller and path, kept in the
 * cache's own store (so the CLI's directory, IndexedDB and OfficeRuntime.storage all share it),
 * and the glue that reads those answers back and marks what is delivered from them.
 */

export interface SourceEntry {
  /** The canonical query string of the cached request. */
  q: string;
  /** When it was noted (ms). */
  at: number;
  /** The answer was a gated preview: the caller's tier gets previews from this path. */
  preview?: boolean;
}

/** Most answers kept in one index; the oldest are forgotten first. */
const INDEX_MAX = 48;
/** Most cached answers read back for one question. */
const CANDIDATES_MAX = 8;

const INDEXES = new WeakMap<ResponseCache, Map<string, Promise<SourceEntry[]>>>();

const isSourceEntry = (e: unknown): e is SourceEntry =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as SourceEntry).q === 'string' &&
  typeof (e as SourceEntry).at === 'number';

/** The stored index (JSON), its entries that read; anything else is an empty index. */
function parseIndex(text: string | undefined): SourceEntry[] {
  try {
    const list = JSON.parse(text ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter(isSourceEntry) : [];
  } catch {
    return [];
  }
}

const indexKey = (client: DchubClient, path: string) => cacheKey(client.callerId, client.baseUrl, 'derive-index', path);

function loadIndex(client: DchubClient, path: string): Promise<SourceEntry[]> {
  const cache = client.cache;
  if (!cache) return Promise.resolve([]);
  let byKey = INDEXES.get(cache);
  if (!byKey) INDEXES.set(cache, (byKey = new Map<string, Promise<SourceEntry[]>>()));
  const key = indexKey(client, path);
  let entries = byKey.get(key);
  // A shared store (the CLI's directory) may have gained entries from another process: read it again.
  if (!entries || cache.store.shared) {
    entries = cache.store.get(key).then(parseIndex, () => []);
    byKey.set(key, entries);
  }
  return entries;
}

/** The noted answers of `path`, most recent first. */
export async function sourcesOf(client: DchubClient, path: string): Promise<readonly SourceEntry[]> {
  return [...(await loadIndex(client, path))].reverse();
}

/** Notes that the answer to `path?query` is cached and may serve other questions (or is a preview). */
export async function noteSource(
  client: DchubClient,
  path: string,
  query: string,
  preview: boolean,
  now: number,
): Promise<void> {
  const cache = client.cache;
  if (!cache) return;
  const add = (entries: SourceEntry[]) => {
    const i = entries.findIndex((e) => e.q === query);
    if (i >= 0) entries.splice(i, 1);
    entries.push({ q: query, at: now, ...(preview ? { preview: true } : {}) });
    if (entries.length > INDEX_MAX) entries.splice(0, entries.length - INDEX_MAX);
    return entries;
  };
  const key = indexKey(client, path);
  if (cache.store.update) {
    // Read, add and write under the store's lock: processes noting answers at once all keep theirs.
    await cache.store.update(key, (text) => JSON.stringify(add(parseIndex(text)))).catch(() => undefined);
    return;
  }
  const entries = add(await loadIndex(client, path));
  await cache.store.set(key, JSON.stringify(entries)).catch(() => undefined);
}

/** The cached answer to `path?query` (fresh or stale) without sending anything; undefined if none fits. */
export async function cachedAnswer<T>(
  client: DchubClient,
  path: string,
  schema: AnswerReader<T>,
  query: string,
): Promise<Fetched<T> | undefined> {
  try {
    return await client.fetchJson(path, schema, query ? new URLSearchParams(query) : undefined, { cacheOnly: true });
  } catch {
    return undefined;
  }
}

/**
 * Yields the cached answers of the noted sources that `accept` (by query), most recent first.
 * Previews are skipped unless `previews` (a list whose withheld fields are told apart field by field).
 */
export async function* cachedSources<T>(
  client: DchubClient,
  path: string,
  schema: AnswerReader<T>,
  accept: (query: string) => boolean,
  opts: { allowStale: boolean; previews?: boolean },
): AsyncGenerator<{ query: string; answer: Fetched<T> }> {
  let read = 0;
  for (const e of await sourcesOf(client, path)) {
    if (e.preview || !accept(e.q)) continue;
    if (read++ >= CANDIDATES_MAX) return;
    const answer = await cachedAnswer(client, path, schema, e.q);
    if (answer && (opts.allowStale || !answer.stale) && (opts.previews || !answer.preview))
      yield { query: e.q, answer };
  }
}

/** Whether this caller's cache holds a fresh preview from `path` (its tier gets previews there). */
export async function previewsSeen(client: DchubClient, path: string, schema: AnswerReader<unknown>): Promise<boolean> {
  for (const e of await loadIndex(client, path)) {
    if (!e.preview) continue;
    const a = await cachedAnswer(client, path, schema, e.q);
    if (a && !a.stale) return true;
  }
  return false;
}

/** The fresh cached answer to exactly this request, if any (memory or the store underneath). */
export async function freshCached<T>(
  client: DchubClient,
  path: string,
  schema: AnswerReader<T>,
  query: string,
): Promise<Fetched<T> | undefined> {
  const a = await cachedAnswer(client, path, schema, query);
  return a && !a.stale ? a : undefined;
}

/** Marks `value` as answered locally from `source` (the cached answer to `path?query`). */
export function deliverDerived<T extends object>(
  value: T,
  source: FetchMeta,
  path: string,
  query: string,
  override: Partial<Pick<FetchMeta, 'stale' | 'reason'>> = {},
): T {
  const stale = override.stale ?? source.stale;
  const reason = override.reason ?? (stale ? source.reason : undefined);
  attachFetchMeta(value, {
    fromCache: source.fromCache,
    stale,
    preview: false,
    fetchedAt: source.fetchedAt,
    ageMs: source.ageMs,
    ...(reason ? { reason } : {}),
    // What the reader mended or left out of the source holds for what is derived from it.
    warnings: source.warnings ?? [],
    ...(source.allowance ? { allowance: source.allowance } : {}),
    derivedFrom: { path, query, ageMs: source.ageMs },
  });
  return value;
}

/**
 * The mode in force for this client: its setting, or the default of the caller's tier. A key
 * whose tier the service has not confirmed yet asks exactly (its first answer tells the tier).
 */
export async function deriveModeOf(client: DchubClient): Promise<DeriveMode> {
  // A relay answers through its own setting, from the cache it keeps; asking it wider would spend calls.
  if (client.relayed) return 'off';
  if (client.derive) return client.derive;
  if (!client.cache) return 'off';
  const snap = await client.ledger?.snapshot();
  // A team gateway derives for the whole team from any member's wide answer: asking it wider would spend the share.
  if (!snap?.confirmed || snap.viaGateway) return 'exact';
  return defaultDeriveMode(snap.tier, snap.limit);
}

/** The caller's tier as the ledger knows it, once the service has confirmed it (a gateway never tells the team's). */
export async function confirmedTier(client: DchubClient): Promise<string | undefined> {
  const snap = await client.ledger?.snapshot();
  return snap?.confirmed && !snap.viaGateway ? snap.tier : undefined;
}

export const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';
