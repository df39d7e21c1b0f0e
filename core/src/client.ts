import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import type { z } from 'zod';
import { lifetimeFor } from './cache/lifetimes.js';
import { QuotaLedger } from './cache/ledger.js';
import { ResponseCache, type StoredAnswer } from './cache/responses.js';
import { MemoryStore } from './cache/store.js';
import type { DeriveMode } from './derive/policy.js';
import {
  DchubError,
  NetworkError,
  NotCachedError,
  QuotaSpentError,
  RateLimitError,
  SchemaDriftError,
  ServerError,
  errorFromResponse,
} from './errors.js';

export const DEFAULT_BASE_URL = 'https://dchub.cloud';

export interface ClientOptions {
  /** Service root, e.g. `http://127.0.0.1:8787`. Defaults to the public service. */
  baseUrl?: string;
  /** Sent as `X-API-Key`, and only to `baseUrl`. */
  apiKey?: string;
  /** Per-attempt timeout in ms (default 30 s; Excel drops calls near 60 s). */
  timeoutMs?: number;
  /** Retries for idempotent calls (GET), default 2. */
  retries?: number;
  fetch?: typeof fetch;
  /** Cached answers (default: in memory). `false` sends every call. */
  cache?: ResponseCache | false;
  /** The daily allowance (default: in memory, keyed by caller). `false` never holds calls back. */
  ledger?: QuotaLedger | false;
  /** Tier of the key when known (sets the ledger's first allowance; server headers correct it). */
  tier?: string;
  /** Clock for freshness and the ledger's day (tests pass the sandbox's). */
  now?: () => number;
  /** Answering narrower questions from cached wider answers (derive/policy.ts); default by tier. */
  derive?: DeriveMode;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Skip a fresh cached answer and ask the service (a failure still falls back to the cache). */
  refresh?: boolean;
  /** `false`: neither read nor write the cache for this call. */
  cache?: boolean;
  /** Answer only from the cache (fresh or stale); never send (Excel's formula value preview). */
  cacheOnly?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** How an answer was obtained. */
export interface FetchMeta {
  fromCache: boolean;
  /** Served from the cache after a failure or a spent allowance. */
  stale: boolean;
  /** A gated preview, not the full data. */
  preview: boolean;
  fetchedAt: number;
  ageMs: number;
  /** Why a stale answer was served. */
  reason?: string;
  /** Answered locally from a cached wider answer (the request below, of that age), not fetched. */
  derivedFrom?: { path: string; query: string; ageMs: number };
}

export interface Fetched<T> extends FetchMeta {
  data: T;
}

const META = new WeakMap<object, FetchMeta>();

/** How the most recent delivery of `data` was obtained (from cache, stale, preview, age). */
export function fetchMeta(data: unknown): FetchMeta | undefined {
  return data && typeof data === 'object' ? META.get(data) : undefined;
}

/** Records how `data` was obtained when it was not delivered by the client itself (derived answers). */
export function attachFetchMeta(data: object, meta: FetchMeta): void {
  META.set(data, meta);
}

function normalizeBaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DchubError('validation', `base URL ${JSON.stringify(url)} is not a valid URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new DchubError('validation', `base URL must be http or https, got ${u.protocol}`);
  }
  return u.href.replace(/\/+$/, '') + '/';
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Non-cryptographic fingerprint (cyrb53): names a caller in cache keys without storing its key. */
function fingerprint(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

interface InFlight {
  promise: Promise<Fetched<unknown>>;
  controller: AbortController;
  waiters: number;
}

/** Rejects with an AbortError when `signal` fires, without cancelling `p` for others. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined, onAbort: () => void): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    onAbort();
    return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(new DOMException('The operation was aborted.', 'AbortError'));
    };
    signal.addEventListener('abort', abort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', abort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', abort);
        reject(e);
      },
    );
  });
}

/**
 * The transport every resource module calls: ky with timeouts and retries for GETs, status →
 * typed error mapping, zod validation of each answer, and for GETs the cache of answers, shared
 * in-flight requests and the quota ledger reserved before each network call.
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
  readonly #apiKey: string | undefined;
  readonly #http: KyInstance;
  readonly #now: () => number;
  readonly #inflight = new Map<string, InFlight>();

  constructor(opts: ClientOptions = {}) {
    this.baseUrl = normalizeBaseUrl(opts.baseUrl ?? DEFAULT_BASE_URL);
    this.#apiKey = opts.apiKey?.trim() || undefined;
    this.callerId = this.#apiKey ? `k${fingerprint(this.#apiKey)}` : 'anon';
    this.#now = opts.now ?? (() => Date.now());
    this.derive = opts.derive;
    this.cache = opts.cache === false ? undefined : (opts.cache ?? new ResponseCache());
    this.ledger =
      opts.ledger === false
        ? undefined
        : (opts.ledger ??
          new QuotaLedger(new MemoryStore(), this.callerId, {
            tier: opts.tier ?? (this.#apiKey ? 'free' : 'anonymous'),
            // A tier the caller states is taken as known; an assumed one waits for the first answer.
            confirmed: opts.tier !== undefined || !this.#apiKey,
            now: this.#now,
          }));
    const base = this.baseUrl;
    const key = this.#apiKey;
    this.#http = ky.create({
      prefixUrl: base,
      timeout: opts.timeoutMs ?? 30_000,
      fetch: opts.fetch,
      retry: {
        limit: opts.retries ?? 2,
        methods: ['get', 'head', 'options'],
        statusCodes: [408, 429, 500, 502, 503, 504],
        afterStatusCodes: [413, 429, 503],
        maxRetryAfter: 60_000,
        backoffLimit: 8_000,
        // 80-120% of the exponential delay, so many clients do not retry in step.
        jitter: (delay: number) => delay * (0.8 + Math.random() * 0.4),
      },
      hooks: {
        beforeRequest: [
          (request) => {
            // The key goes to the configured service only, never to a redirect target elsewhere.
            if (key && request.url.startsWith(base)) request.headers.set('X-API-Key', key);
            this.requestsSent++;
          },
        ],
      },
    });
  }

  /** Whether a key is configured (the key itself is not readable). */
  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  async #send(
    method: 'get' | 'post',
    path: string,
    init: { searchParams?: URLSearchParams; json?: unknown; signal?: AbortSignal; headers?: Record<string, string> },
  ): Promise<RawResponse> {
    let response: Response;
    try {
      response = await this.#http(path.replace(/^\/+/, ''), {
        method,
        searchParams: init.searchParams,
        json: init.json,
        signal: init.signal,
        headers: init.headers,
      });
    } catch (err) {
      if (err instanceof HTTPError) {
        const text = await err.response.text().catch(() => '');
        if (err.response.status === 304) return { status: 304, headers: err.response.headers, text };
        const body = parseJson(text) ?? text;
        throw errorFromResponse(err.response.status, body, err.response.headers);
      }
      if (err instanceof TimeoutError) throw new NetworkError(`${path}: timed out`, { timeout: true, cause: err });
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      if (err instanceof DchubError) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      throw new NetworkError(`${path}: cannot reach ${this.baseUrl} (${reason})`, { cause: err });
    }
    const text = await response.text().catch((err: unknown) => {
      throw new NetworkError(`${path}: connection dropped while reading the answer`, { cause: err });
    });
    return { status: response.status, headers: response.headers, text };
  }

  /** Whether a GET would be answered from a fresh cached answer (no call spent). */
  isFresh(path: string, searchParams?: URLSearchParams): boolean {
    const hit = this.cache?.peek(this.#key(path, searchParams));
    return hit !== undefined && hit.answer.expiresAt > this.#now();
  }

  #key(path: string, searchParams?: URLSearchParams, body?: unknown): string {
    if (body !== undefined) return `dchub:c:${this.callerId}:POST ${path}#${fingerprint(JSON.stringify(body))}`;
    const query = searchParams ? new URLSearchParams([...searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString() : '';
    return `dchub:c:${this.callerId}:GET ${path}${query ? `?${query}` : ''}`;
  }

  /** GET as text (CSV and other non-JSON answers); counted by the ledger, not cached. */
  async getText(path: string, searchParams?: URLSearchParams, opts: CallOptions = {}): Promise<RawResponse> {
    await this.#reserve();
    try {
      const raw = await this.#send('get', path, { searchParams, signal: opts.signal });
      await this.ledger?.correct(raw.headers);
      return raw;
    } catch (err) {
      await this.#settleFailure(err);
      throw err;
    }
  }

  /** GET and validate a JSON answer against `schema` (through the cache and the ledger). */
  async getJson<S extends z.ZodType>(path: string, schema: S, searchParams?: URLSearchParams, opts: CallOptions = {}): Promise<z.output<S>> {
    return (await this.fetchJson(path, schema, searchParams, opts)).data;
  }

  /** Like getJson, with how the answer was obtained (cache, stale, preview, age). */
  async fetchJson<S extends z.ZodType>(path: string, schema: S, searchParams?: URLSearchParams, opts: CallOptions = {}, body?: unknown): Promise<Fetched<z.output<S>>> {
    const key = this.#key(path, searchParams, body);
    const useCache = this.cache !== undefined && opts.cache !== false;
    if (useCache && !opts.refresh) {
      const hit = this.cache!.peek(key);
      const now = this.#now();
      if (hit && hit.answer.expiresAt > now) {
        this.cache!.stats.hits++;
        return this.#deliver(hit.value as z.output<S>, hit.answer, { fromCache: true, stale: false, now });
      }
    }
    if (opts.cacheOnly) return this.#fromCacheOnly(key, path, schema);
    const shared = this.#inflight.get(key);
    if (shared) {
      shared.waiters++;
      return raceAbort(shared.promise, opts.signal, () => this.#leave(key, shared)) as Promise<Fetched<z.output<S>>>;
    }
    const controller = new AbortController();
    const entry: InFlight = {
      controller,
      waiters: 1,
      promise: this.#fetchThrough(key, path, schema, searchParams, { ...opts, signal: controller.signal }, useCache, body).finally(() => {
        if (this.#inflight.get(key) === entry) this.#inflight.delete(key);
      }),
    };
    this.#inflight.set(key, entry);
    return raceAbort(entry.promise, opts.signal, () => this.#leave(key, entry)) as Promise<Fetched<z.output<S>>>;
  }

  async #fromCacheOnly<S extends z.ZodType>(key: string, path: string, schema: S): Promise<Fetched<z.output<S>>> {
    const mem = this.cache?.peek(key);
    const stored = mem?.answer ?? (await this.cache?.load(key));
    if (!stored) throw new NotCachedError(path);
    const value = mem?.answer === stored ? mem.value : this.#decode(path, { status: 200, headers: new Headers(), text: stored.text }, schema);
    const now = this.#now();
    return this.#deliver(value as z.output<S>, stored, { fromCache: true, stale: stored.expiresAt <= now, now, ...(stored.expiresAt <= now ? { reason: 'not refreshed in preview' } : {}) });
  }

  /** A waiter gave up; when none is left the shared request is aborted. */
  #leave(key: string, entry: InFlight): void {
    entry.waiters--;
    if (entry.waiters <= 0) {
      entry.controller.abort();
      if (this.#inflight.get(key) === entry) this.#inflight.delete(key);
    }
  }

  #deliver<T>(value: T, answer: StoredAnswer, m: { fromCache: boolean; stale: boolean; now: number; reason?: string }): Fetched<T> {
    const meta: FetchMeta = {
      fromCache: m.fromCache,
      stale: m.stale,
      preview: answer.preview === true,
      fetchedAt: answer.storedAt,
      ageMs: Math.max(0, m.now - answer.storedAt),
      ...(m.reason ? { reason: m.reason } : {}),
    };
    if (value && typeof value === 'object') META.set(value, meta);
    return { data: value, ...meta };
  }

  async #reserve(): Promise<void> {
    if (this.ledger && !(await this.ledger.reserve())) {
      const snap = await this.ledger.snapshot();
      throw new QuotaSpentError(snap.limit, snap.resetsAt);
    }
  }

  /** After a failed call: give back a reservation that never reached the service; note a spent day. */
  async #settleFailure(err: unknown): Promise<void> {
    if (!this.ledger) return;
    if (err instanceof NetworkError || (err instanceof DOMException && err.name === 'AbortError')) await this.ledger.release();
    else if (err instanceof RateLimitError && (err.body as { error?: string } | undefined)?.error === 'daily_limit_reached') await this.ledger.exhaust();
    else if (err instanceof DchubError && err.status !== undefined) await this.ledger.correct(new Headers()); // the service answered
  }

  async #fetchThrough<S extends z.ZodType>(
    key: string,
    path: string,
    schema: S,
    searchParams: URLSearchParams | undefined,
    opts: CallOptions,
    useCache: boolean,
    body?: unknown,
  ): Promise<Fetched<z.output<S>>> {
    let stored = useCache ? (this.cache!.peek(key)?.answer ?? (await this.cache!.load(key))) : undefined;
    let storedValue: unknown;
    if (stored) {
      const mem = this.cache!.peek(key);
      if (mem && mem.answer === stored) storedValue = mem.value;
      else {
        try {
          storedValue = this.#decode(path, { status: 200, headers: new Headers(), text: stored.text }, schema);
          this.cache!.remember(key, stored, storedValue);
        } catch {
          stored = undefined; // what was stored no longer fits the schema: ignore it
        }
      }
    }
    const now = this.#now();
    if (stored && stored.expiresAt > now && !opts.refresh) {
      this.cache!.stats.hits++;
      return this.#deliver(storedValue as z.output<S>, stored, { fromCache: true, stale: false, now });
    }
    if (useCache) this.cache!.stats.misses++;
    const stale = (reason: string) => {
      this.cache!.stats.staleServed++;
      return this.#deliver(storedValue as z.output<S>, stored!, { fromCache: true, stale: true, now: this.#now(), reason });
    };
    try {
      await this.#reserve();
    } catch (err) {
      if (stored) return stale('daily limit reached');
      throw err;
    }
    let raw: RawResponse;
    try {
      raw = await this.#send(body === undefined ? 'get' : 'post', path, {
        searchParams,
        json: body,
        signal: opts.signal,
        headers: stored?.etag ? { 'If-None-Match': stored.etag } : undefined,
      });
    } catch (err) {
      await this.#settleFailure(err);
      if (stored && (err instanceof NetworkError || err instanceof ServerError || err instanceof RateLimitError)) {
        return stale(err instanceof RateLimitError ? 'rate limited' : err instanceof NetworkError ? 'offline' : 'service error');
      }
      throw err;
    }
    await this.ledger?.correct(raw.headers);
    const at = this.#now();
    if (raw.status === 304 && stored) {
      const refreshed: StoredAnswer = { ...stored, storedAt: at, expiresAt: at + lifetimeFor(path, at, storedValue) };
      this.cache!.stats.revalidated++;
      await this.cache!.save(key, refreshed, storedValue);
      return this.#deliver(storedValue as z.output<S>, refreshed, { fromCache: true, stale: false, now: at });
    }
    const value = this.#decode(path, raw, schema);
    const answer: StoredAnswer = {
      text: raw.text,
      storedAt: at,
      expiresAt: at + lifetimeFor(path, at, value),
      etag: raw.headers.get('etag') ?? undefined,
      preview: (value as { _gated?: unknown } | null)?._gated === true,
    };
    // A preview is stored as a preview (so it is never served as full data), under this caller only.
    if (useCache) await this.cache!.save(key, answer, value);
    return this.#deliver(value, answer, { fromCache: false, stale: false, now: at });
  }

  /**
   * POST a JSON body and validate the answer. Never retried. Pure computations (ranking, parcel
   * analysis) pass `cacheable` so that the same body is answered from the cache.
   */
  async postJson<S extends z.ZodType>(path: string, body: unknown, schema: S, opts: CallOptions & { cacheable?: boolean } = {}): Promise<z.output<S>> {
    if (opts.cacheable) return (await this.fetchJson(path, schema, undefined, opts, body)).data;
    await this.#reserve();
    try {
      const raw = await this.#send('post', path, { json: body, signal: opts.signal });
      await this.ledger?.correct(raw.headers);
      return this.#decode(path, raw, schema);
    } catch (err) {
      await this.#settleFailure(err);
      throw err;
    }
  }

  #decode<S extends z.ZodType>(path: string, raw: RawResponse, schema: S): z.output<S> {
    const json = parseJson(raw.text);
    if (json === undefined) {
      throw new SchemaDriftError('', `${path} answered ${raw.text.length ? 'malformed JSON' : 'an empty body'}`, { body: raw.text.slice(0, 200) });
    }
    // Branch on `_entity`/`ok`/`success` first: the service reports some errors with a 200.
    if (json && typeof json === 'object') {
      const o = json as Record<string, unknown>;
      if (o._entity === 'error' || o.ok === false || (o.success === false && typeof o.error === 'string')) {
        throw errorFromResponse(raw.status >= 400 ? raw.status : 500, json, raw.headers);
      }
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SchemaDriftError(issue?.path.map(String).join('.') ?? '', issue?.message ?? 'unexpected shape', { body: json });
    }
    return parsed.data;
  }
}
