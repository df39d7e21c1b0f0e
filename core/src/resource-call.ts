import { fetchMeta, type CallOptions, type FetchMeta, type Fetched } from './call.js';
import type { DchubClient } from './client.js';
import { derivedAnswer, noteFetched } from './derive/answers.js';
import { ValidationError } from './errors.js';
import {
  isCacheable,
  requestOf,
  shapeAnswer,
  type AnswerOf,
  type AnswerReader,
  type EndpointRequest,
  type InputOf,
  type Resource,
  type Shaped,
} from './resource.js';

export interface EndpointCallOptions extends CallOptions {
  /** Ask one of the endpoint's other paths (its aliases) instead of its own. */
  via?: string;
}

/** An answer as fetched, with the request that asked it. */
export interface Fetch<T> extends Fetched<T> {
  request: EndpointRequest;
}

/** One shaped answer: the data, how it was obtained, the path asked, and its table or record (resource.ts). */
export interface Answer<T> {
  data: T;
  meta: FetchMeta;
  path: string;
  shaped: Shaped;
}

/** The request with `via` in place of the endpoint's path: one of its aliases, never another path. */
function viaAlias(e: Resource, req: EndpointRequest, via: string | undefined): EndpointRequest {
  if (via === undefined || via === req.path) return req;
  const paths = [e.path, ...(e.aliases ?? [])];
  if (!paths.includes(via))
    throw new ValidationError('path', `must be one of ${paths.join(', ')}, got ${JSON.stringify(via)}`);
  return { ...req, path: via };
}

/** The request sent through the client: the cache and the ledger (a POST that is no pure computation: the ledger). */
function send<T>(client: DchubClient, e: Resource, req: EndpointRequest, opts: CallOptions): Promise<Fetched<T>> {
  const reader = e.reader as AnswerReader<T> | undefined;
  if (!reader) throw new Error(`${e.path} answers no JSON: read it with its own decoder`);
  if (e.method === 'post' && !isCacheable(e)) return client.sendJson(req.path, req.body, reader, opts);
  const cache = opts.cache ?? (isCacheable(e) ? undefined : false);
  return client.fetchJson(req.path, reader, req.params, cache === undefined ? opts : { ...opts, cache }, req.body);
}

/** The arguments of a call: the client, the endpoint, what the caller gives it, the call's options. */
export type CallArgs<E extends Resource> = [client: DchubClient, e: E, input: InputOf<E>, opts?: EndpointCallOptions];

/**
 * An endpoint's answer for a caller's input, as fetched: the input checked (a bad argument spends
 * nothing), the request sent through the client's cache and daily ledger — or answered through the
 * derive setting from cached wider answers (the refined queue) — and a list that answers items
 * noted as their source.
 */
export async function fetchAnswer<E extends Resource>(
  ...[client, e, input, opts = {}]: CallArgs<E>
): Promise<Fetch<AnswerOf<E>>> {
  const { via, ...callOpts } = opts;
  const request = viaAlias(e, requestOf(e, input), via);
  const derived = derivedAnswer(client, e, request, callOpts);
  if (derived) {
    const data = (await derived) as AnswerOf<E>;
    const meta = fetchMeta(data);
    if (!meta) throw new Error(`${e.path}: a derived answer carries how it was obtained`);
    return { ...meta, data, request };
  }
  const r = await send<AnswerOf<E>>(client, e, request, callOpts);
  await noteFetched(client, e, request, r, callOpts);
  return { ...r, request };
}

/** The data of an endpoint's answer (fetchAnswer); `fetchMeta(data)` says how it was obtained. */
export const fetchData = async <E extends Resource>(...args: CallArgs<E>): Promise<AnswerOf<E>> =>
  (await fetchAnswer(...args)).data;

/**
 * One generic call for every resource: the answer fetched (fetchAnswer) and shaped as its endpoint
 * says — a table's rows and columns or a record, its citation, data time and note — with how it was
 * obtained (cache, stale, preview, age, warnings, what the service explains).
 */
export async function call<E extends Resource>(...args: CallArgs<E>): Promise<Answer<AnswerOf<E>>> {
  const { data, request, ...meta } = await fetchAnswer(...args);
  return { data, meta, path: request.path, shaped: shapeAnswer(args[1], data, args[2] as Partial<InputOf<E>>) };
}

/**
 * An endpoint's call by name, as the hosts call it: `(client, input, opts)` to its data (an endpoint
 * that takes no input: `(client, opts)`, `byClient`).
 */
export const byInput =
  <E extends Resource>(e: E) =>
  (client: DchubClient, input: InputOf<E> = {} as InputOf<E>, opts: EndpointCallOptions = {}): Promise<AnswerOf<E>> =>
    fetchData(client, e, input, opts);

export const byClient =
  <E extends Resource>(e: E) =>
  (client: DchubClient, opts: EndpointCallOptions = {}): Promise<AnswerOf<E>> =>
    fetchData(client, e, {} as InputOf<E>, opts);
