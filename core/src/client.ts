import type { z } from 'zod';
import { CachedFetcher, fingerprint, type AnswerDecoder } from './cache/fetcher.js';
import { QuotaLedger } from './cache/ledger.js';
import { ResponseCache } from './cache/responses.js';
import { MemoryStore } from './cache/store.js';
import type { CallOptions, Fetched } from './call.js';
import { normalizeBaseUrl } from './http/baseurl.js';
import { redirectSafeFetch } from './http/redirects.js';
import { Transport, type RawResponse } from './http/transport.js';
import type { DeriveMode } from './derive/policy.js';
import { decodeJson, isReader, schemaReader, type Reader } from './read/decode.js';
import { checkApiKey } from './api-key.js';
import { defaultTier } from './plans.js';
import type { AnswerReader } from './resource.js';

export { attachFetchMeta, fetchMeta, formatAge, type CallOptions, type FetchMeta, type Fetched } from './call.js';
export type { RawResponse } from './http/transport.js';

export const DEFAULT_BASE_URL = 'https://dchub.cloud';

export interface ClientOptions {
  /** Service root, e.g. `http://127.0.0.1:8787`. Defaults to the public service. Credentials in it are refused. */
  baseUrl?: string;
  /** Sent as `X-API-Key`, and only to `baseUrl`'s origin (redirects elsewhere are refused while a key is set). */
  apiKey?: string;
  /** Bound on one call's whole wait, retries included (default 30 s; Excel drops calls near 60 s). */
  timeoutMs?: number;
  /** Retries for idempotent calls (GET) on short waits, default 2. */
  retries?: number;
  fetch?: typeof fetch;
  /** Cached answers (default: in memory). `false` sends every call. */
  cache?: ResponseCache | false;
  /** The daily allowance (default: in memory, keyed by caller). `false` never holds calls back. */
  ledger?: QuotaLedger | false;
  /** Tier of the key when known (its allowance is then taken as known; server headers correct it). */
  tier?: string;
  /** Clock for freshness and the ledger's day (tests pass the sandbox's). */
  now?: () => number;
  /** Answering narrower questions from cached wider answers (derive/policy.ts); default by tier. */
  derive?: DeriveMode;
  /**
   * `baseUrl` is a DC Hub relay (the Jupyter server's), which keeps the caller's cache and daily
   * ledger: this client then keeps neither (`cache` and `ledger` are not used) and takes how each
   * answer was obtained from the relay's answer header (cache/relayed.ts), trusted only here.
   */
  relayed?: boolean;
}

/** Names a caller in cache keys and the ledger: `anon`, or a fingerprint of the key (never the key). */
export const callerIdOf = (apiKey: string | undefined): string => (apiKey ? `k${fingerprint(apiKey)}` : 'anon');

/**
 * An answer whose headers that echo the key are dropped before anything reads them (the ledger, the cache, a relay).
 */
function withoutEchoedKey(raw: RawResponse, key: string | undefined): RawResponse {
  if (!key) return raw;
  let echoed = false;
  raw.headers.forEach((v) => (echoed ||= v.includes(key)));
  if (!echoed) return raw;
  const headers = new Headers();
  raw.headers.forEach((v, k) => {
    if (!v.includes(key)) headers.set(k, v);
  });
  return { ...raw, headers };
}

export type { AnswerReader } from './resource.js';

/** One decoder per reader or schema, made once (the warm-cache path allocates nothing for it). */
const DECODERS = new WeakMap<object, AnswerDecoder<unknown>>();
function jsonDecoder<T>(r: AnswerReader<T>): AnswerDecoder<T> {
  let d = DECODERS.get(r);
  if (!d) {
    const reader = isReader<T>(r) ? r : (schemaReader(r as z.ZodType) as Reader<T>);
    d = (raw, ctx) => decodeJson(raw, reader, ctx);
    DECODERS.set(r, d);
  }
  return d as AnswerDecoder<T>;
}

/**
 * The client every resource module calls: the transport (ky, one timeout per call, short retries,
 * redirects kept on the configured origin), the tolerant readers, and for GETs the cache of answers,
 * shared in-flight requests and the quota ledger reserved before each network call.
 */
export class DchubClient {
  readonly baseUrl: string;
  /** Names this caller in cache keys and the ledger (`anon` or a fingerprint of the key). */
  readonly callerId: string;
  readonly cache: ResponseCache | undefined;
  readonly ledger: QuotaLedger | undefined;
  /** Requests actually sent to the service by this client. */
  requestsSent = 0;
  /** The derive setting given (undefined: the default of the caller's tier). */
  readonly derive: DeriveMode | undefined;
  /** Talks to a relay that keeps the cache and the ledger (ClientOptions.relayed). */
  readonly relayed: boolean;
  /** The client's clock (ms): freshness, ages and the ledger's day. */
  readonly now: () => number;
  readonly #apiKey: string | undefined;
  readonly #transport: Transport;
  readonly #fetcher: CachedFetcher;
  readonly #safeFetch: typeof fetch;

  constructor(opts: ClientOptions = {}) {
    this.baseUrl = normalizeBaseUrl(opts.baseUrl ?? DEFAULT_BASE_URL);
    this.#apiKey = checkApiKey(opts.apiKey);
    this.callerId = callerIdOf(this.#apiKey);
    const now = opts.now ?? (() => Date.now());
    this.now = now;
    this.derive = opts.derive;
    this.relayed = opts.relayed === true;
    // A relay's answers are the caller's cache: a second cache or ledger here would disagree with it.
    this.cache = opts.cache === false || this.relayed ? undefined : (opts.cache ?? new ResponseCache());
    this.ledger =
      opts.ledger === false || this.relayed
        ? undefined
        : (opts.ledger ??
          new QuotaLedger(new MemoryStore(), this.callerId, {
            tier: opts.tier ?? defaultTier(this.#apiKey),
            // A tier the caller states is taken as known; otherwise the allowance is assumed (warn, never refuse).
            confirmed: opts.tier !== undefined,
            now,
          }));
    this.#safeFetch = redirectSafeFetch(opts.fetch);
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: this.#apiKey,
      timeoutMs: opts.timeoutMs ?? 30_000,
      retries: opts.retries ?? 2,
      fetch: opts.fetch,
      onSend: () => this.requestsSent++,
    });
    this.#fetcher = new CachedFetcher({
      callerId: this.callerId,
      service: this.baseUrl,
      cache: this.cache,
      ledger: this.ledger,
      now,
      send: async (method, path, init) =>
        withoutEchoedKey(await this.#transport.send(method, path, init), this.#apiKey),
      mayStore: (text) => this.#apiKey === undefined || !text.includes(this.#apiKey),
      relayed: this.relayed,
      waitMs: opts.timeoutMs ?? 30_000,
    });
  }

  /** Whether a key is configured (the key itself is not readable). */
  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /**
   * A fetch that follows redirects by hand and never carries the key off the base URL's origin (for the MCP transport).
   */
  get safeFetch(): typeof fetch {
    return this.#safeFetch;
  }

  /** Whether a GET would be answered from a fresh cached answer (no call spent). */
  isFresh(path: string, searchParams?: URLSearchParams): boolean {
    return this.#fetcher.isFresh({ path, params: searchParams });
  }

  /**
   * GET a non-JSON answer through the cache, decoded by `decode` (which must be pure: it runs again on cached text).
   */
  fetchText<T>(
    path: string,
    decode: AnswerDecoder<T>,
    searchParams?: URLSearchParams,
    opts: CallOptions = {},
  ): Promise<Fetched<T>> {
    return this.#fetcher.fetch({ path, params: searchParams }, decode, opts);
  }

  /** GET and read a JSON answer (through the cache and the ledger). */
  async getJson<T>(
    path: string,
    reader: AnswerReader<T>,
    searchParams?: URLSearchParams,
    opts: CallOptions = {},
  ): Promise<T> {
    return (await this.fetchJson(path, reader, searchParams, opts)).data;
  }

  /** Like getJson, with how the answer was obtained (cache, stale, preview, age, warnings). */
  fetchJson<T>(
    path: string,
    reader: AnswerReader<T>,
    searchParams?: URLSearchParams,
    opts: CallOptions = {},
    body?: unknown,
  ): Promise<Fetched<T>> {
    return this.#fetcher.fetch({ path, params: searchParams, body }, jsonDecoder(reader), opts);
  }

  /**
   * POST a JSON body and read the answer. Never retried. Pure computations (ranking, parcel
   * analysis) pass `cacheable` so that the same body is answered from the cache.
   */
  async postJson<T>(
    path: string,
    body: unknown,
    reader: AnswerReader<T>,
    opts: CallOptions & { cacheable?: boolean } = {},
  ): Promise<T> {
    if (opts.cacheable) return (await this.fetchJson(path, reader, undefined, opts, body)).data;
    return (await this.sendJson(path, body, reader, opts)).data;
  }

  /** POST a JSON body, never retried nor cached (counted by the ledger), with how the answer was obtained. */
  sendJson<T>(path: string, body: unknown, reader: AnswerReader<T>, opts: CallOptions = {}): Promise<Fetched<T>> {
    return this.#fetcher.send('post', { path, body }, jsonDecoder(reader), opts);
  }
}
