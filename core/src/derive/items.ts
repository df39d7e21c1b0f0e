import type { AnswerReader, CallOptions, DchubClient, Fetched } from '../client.js';
import { readPath } from '../table.js';
import { answerThrough } from './flow.js';
import { cachedSources, confirmedTier, deliverDerived, freshCached, noteSource } from './sources.js';

/**
 * Lists that answer items: one list answer (the DCPI scores, a page of market briefs) serves a
 * field of an item endpoint for every row it holds, when the row carries that field exactly as the
 * item endpoint would answer it. A field the list withholds (null, locked, or gated by tier) is
 * never served from it; anything else is fetched.
 */

type Row = Record<string, unknown>;

export interface ListItemPair {
  /** The list endpoint and its answer's schema. */
  listPath: string;
  listSchema: AnswerReader<unknown>;
  /** The list request sent when widening: the one that holds every item the caller may see. */
  widenQuery: string;
  /** The member of an item that names it (the key a row answers for). */
  keyField: string;
  rows(list: unknown): readonly Row[];
  /** Whether a row of this list may carry `field` for a caller of `tier` (before fetching it). */
  mayCarry(field: string, tier: string | undefined): boolean;
  /** Whether this list answer withholds `field` (locked or gated for the caller). */
  withholds(list: unknown, row: Row, field: string): boolean;
}

/** The list rows' keys are the item endpoint's canonical ones: an alias or other spelling is fetched. */
const rowFor = (pair: ListItemPair, list: unknown, key: string): Row | undefined =>
  pair.rows(list).find((r) => r[pair.keyField] === key);

function setPath(obj: Row, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Row;
  cur[parts[parts.length - 1]] = value;
}

/** The asked fields of `key` from one list answer, or undefined when the list does not carry them all. */
function serve(
  pair: ListItemPair,
  list: unknown,
  key: string,
  fields: readonly string[],
  tier: string | undefined,
): Row | undefined {
  if (list && typeof list === 'object' && (list as Row)._preview_params_not_applied !== undefined) return undefined;
  const row = rowFor(pair, list, key);
  if (!row) return undefined;
  const out: Row = { [pair.keyField]: key };
  for (const field of fields) {
    const v = readPath(row, field);
    if (v === undefined || v === null || !pair.mayCarry(field, tier) || pair.withholds(list, row, field))
      return undefined;
    setPath(out, field, v);
  }
  return out;
}

/** The fields from a cached list (fresh ones; with `reason`, stale ones too, marked so). */
async function fromLists(
  client: DchubClient,
  pair: ListItemPair,
  key: string,
  fields: readonly string[],
  tier: string | undefined,
  reason?: string,
): Promise<Row | undefined> {
  for await (const { query, answer } of cachedSources(client, pair.listPath, pair.listSchema, () => true, {
    allowStale: reason !== undefined,
    previews: true,
  })) {
    const served = serve(pair, answer.data, key, fields, tier);
    if (served) return deliverDerived(served, answer, pair.listPath, query, reason ? { stale: true, reason } : {});
  }
  return undefined;
}

/** Notes a fetched list answer as a source of items. */
export async function noteList(
  client: DchubClient,
  pair: ListItemPair,
  query: string,
  r: Fetched<unknown>,
): Promise<void> {
  const params = (r.data as Row | null)?._preview_params_not_applied;
  if (!r.stale && params === undefined) await noteSource(client, pair.listPath, query, false, r.fetchedAt);
}

/**
 * The asked `fields` of item `key` through the derive setting (derive/flow.ts): a fresh cached
 * item; else a fresh cached list that carries them; else (widen) the list fetched now; else the
 * item. The answer holds at least the asked fields (the whole item when fetched); `fetchMeta`
 * says how it was obtained.
 */
export async function answerItemFields<T>(
  client: DchubClient,
  pair: ListItemPair,
  item: { path: string; schema: AnswerReader<T> },
  key: string,
  fields: readonly string[],
  opts: CallOptions = {},
): Promise<T | Row> {
  const exact = async () => (await client.fetchJson(item.path, item.schema, undefined, opts)).data;
  if (fields.length === 0) return exact();
  const tier = await confirmedTier(client);
  return answerThrough<T | Row>(client, opts, {
    exact,
    own: async () => (await freshCached(client, item.path, item.schema, ''))?.data,
    local: (reason) => fromLists(client, pair, key, fields, tier, reason),
    widen: async () => {
      // The list cannot serve these fields to this caller, or it is cached and did not.
      if (!fields.every((f) => pair.mayCarry(f, tier))) return undefined;
      if (await freshCached(client, pair.listPath, pair.listSchema, pair.widenQuery)) return undefined;
      const list = await client.fetchJson(
        pair.listPath,
        pair.listSchema,
        pair.widenQuery ? new URLSearchParams(pair.widenQuery) : undefined,
        opts,
      );
      await noteList(client, pair, pair.widenQuery, list);
      const served = list.stale ? undefined : serve(pair, list.data, key, fields, tier);
      return served ? deliverDerived(served, list, pair.listPath, pair.widenQuery) : undefined;
    },
  });
}
