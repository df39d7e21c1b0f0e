import type { CallOptions, Fetched } from '../call.js';
import { DchubError, NetworkError, NotCachedError, QuotaSpentError, RateLimitError } from '../errors.js';
import { StoredHeaders } from '../http/stored-headers.js';
import type { RawResponse, SendInit } from '../http/transport.js';
import type { Decoded, ReadContext } from '../read/decode.js';
import { deliver, type Delivery } from './delivery.js';
import { staleReason } from './stale.js';
import { gatewayNotice, isGatewayAnswer } from './gateway.js';
import { InFlightRequests } from './inflight.js';
import { cacheKey, fingerprint } from './keys.js';
import { readAnswerHeader, type AnswerFacts } from './relayed.js';
import type { QuotaLedger } from './ledger.js';
import { lifetimeFor } from './lifetimes.js';
import { answerToKeep } from './kept.js';
import type { ResponseCache, StoredAnswer } from './responses.js';

export { fingerprint } from './keys.js';

/** Turns a raw answer into a value and what reading it noticed. Must be pure: stored answers are decoded again. */
export type AnswerDecoder<T> = (raw: RawResponse, ctx: ReadContext) => Decoded<T>;

export interface FetcherDeps {
  readonly callerId: string;
  /** The service's base URL: part of every key, so two services never share an answer. */
  readonly service: string;
  readonly cache: ResponseCache | undefined;
  readonly ledger: QuotaLedger | undefined;
  now(): number;
  send(method: 'get' | 'post', path: string, init: SendInit): Promise<RawResponse>;
  /** How long to wait for another process fetching the same answer (default 30 s: a call's timeout). */
  readonly waitMs?: number;
  /** Whether an answer's text may be kept (never one that echoes the caller's key). Default: yes. */
  mayStore?(text: string): boolean;
  /**
   * Answers come from a relay that keeps the cache and ledger: its answer header says how each was
   * obtained. (A team gateway's answers say so themselves, and are read the same way.)
   */
  readonly relayed?: boolean;
}

/** One call to make: a GET with its query, or a POST with its JSON body. */
export interface CallSpec {
  path: string;
  params?: URLSearchParams;
  body?: unknown;
}

/** A stored answer served as it is, fresh: no call spent. */
const fromCache = <T>(value: T, answer: StoredAnswer, notes: Delivery['notes'], now: number): Fetched<T> =>
  deliver(value, answer, { fromCache: true, stale: false, now, notes });

/**
 * Cached GETs (and cacheable POSTs): fresh answers from the cache, identical concurrent calls
 * sharing one request, the quota ledger reserved before each send, ETag revalidation, and one rule
 * for failures: a failed refresh serves the last good answer marked stale with its age and reason,
 * and a bad answer is never stored.
 */
export class CachedFetcher {
  readonly #inflight = new InFlightRequests();
  constructor(private readonly deps: FetcherDeps) {}

  key(call: CallSpec): string {
    const { path, params, body } = call;
    const { callerId, service } = this.deps;
    if (body !== undefined) return cacheKey(callerId, service, 'POST', `${path}#${fingerprint(JSON.stringify(body))}`);
    const query = params
      ? new URLSearchParams([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString()
      : '';
    return cacheKey(callerId, service, 'GET', `${path}${query ? `?${query}` : ''}`);
  }

  /** Whether a call would be answered from a fresh cached answer (no call spent). */
  isFresh(call: CallSpec): boolean {
    const hit = this.deps.cache?.peek(this.key(call));
    return hit !== undefined && hit.answer.expiresAt > this.deps.now();
  }

  async fetch<T>(call: CallSpec, decode: AnswerDecoder<T>, opts: CallOptions = {}): Promise<Fetched<T>> {
    const cache = opts.cache === false ? undefined : this.deps.cache;
    const key = this.key(call);
    if (cache && !opts.refresh) {
      const hit = cache.peek(key);
      const now = this.deps.now();
      if (hit && hit.answer.expiresAt > now) {
        cache.stats.hits++;
        return fromCache(hit.value as T, hit.answer, hit.notes, now);
      }
    }
    if (opts.cacheOnly) return this.#fromCacheOnly(key, call, decode);
    return this.#inflight.share(
      key,
      (signal) => this.#fetchThrough(key, call, decode, { ...opts, signal }, cache),
      opts.signal,
    );
  }

  /** Sends once, never cached (POSTs that change or cost something); the ledger still applies. */
  async send<T>(
    method: 'get' | 'post',
    call: CallSpec,
    decode: AnswerDecoder<T>,
    opts: CallOptions = {},
  ): Promise<Fetched<T>> {
    const warning = await this.#reserve();
    try {
      const raw = await this.deps.send(method, call.path, {
        searchParams: call.params,
        json: call.body,
        signal: opts.signal,
      });
      await this.deps.ledger?.correct(raw.headers);
      const d = decode(raw, this.#ctx(call));
      const at = this.deps.now();
      const answer: StoredAnswer = { text: raw.text, storedAt: at, expiresAt: at, preview: d.preview !== undefined };
      return this.#fresh(d, answer, raw, at, warning);
    } catch (err) {
      await this.#failed(err, warning);
      throw err;
    }
  }

  #ctx(call: CallSpec): ReadContext {
    return { path: call.path, params: call.params, body: call.body, warnings: [] };
  }

  /** A stored answer decoded again (its notes with it), or undefined when it no longer reads. */
  #readStored<T>(
    key: string,
    call: CallSpec,
    stored: StoredAnswer,
    decode: AnswerDecoder<T>,
    cache: ResponseCache,
  ): Decoded<T> | undefined {
    const mem = cache.peek(key);
    if (mem && mem.answer === stored)
      return { value: mem.value as T, warnings: mem.notes?.warnings ?? [], preview: mem.notes?.preview };
    try {
      const d = decode({ status: 200, headers: new StoredHeaders(stored.headers), text: stored.text }, this.#ctx(call));
      cache.remember(key, stored, d.value, d);
      return d;
    } catch {
      return undefined; // what was stored no longer reads: ignore it
    }
  }

  async #fromCacheOnly<T>(key: string, call: CallSpec, decode: AnswerDecoder<T>): Promise<Fetched<T>> {
    const cache = this.deps.cache;
    const stored = cache ? await this.#stored(key, cache) : undefined;
    const d = stored && cache ? this.#readStored(key, call, stored, decode, cache) : undefined;
    if (!stored || !d) throw new NotCachedError(call.path);
    const now = this.deps.now();
    const stale = stored.expiresAt <= now;
    return deliver(d.value, stored, {
      fromCache: true,
      stale,
      now,
      notes: d,
      ...(stale ? { reason: 'not refreshed in preview' } : {}),
    });
  }

  /**
   * The newest stored answer: memory's, unless it expired and the store (shared with other processes) holds a newer
   * one.
   */
  async #stored(key: string, cache: ResponseCache): Promise<StoredAnswer | undefined> {
    const mem = cache.peek(key)?.answer;
    if (mem && (mem.expiresAt > this.deps.now() || !cache.store.shared)) return mem;
    const disk = await cache.load(key);
    return disk && (!mem || disk.storedAt > mem.storedAt) ? disk : mem;
  }

  /** Reserves one call; the warning to show when an assumed allowance was exceeded. */
  async #reserve(): Promise<string | undefined> {
    const ledger = this.deps.ledger;
    if (!ledger) return undefined;
    const r = await ledger.reserveCall();
    if (!r.ok) {
      const snap = await ledger.snapshot();
      throw new QuotaSpentError(snap.limit, snap.resetsAt);
    }
    return r.warning;
  }

  /** After a failed call: the ledger settled, and the allowance warning carried by the error. */
  async #failed(err: unknown, warning: string | undefined): Promise<void> {
    await this.#settleFailure(err);
    if (warning && err instanceof DchubError) err.allowance ??= warning;
  }

  /**
   * After a failed call: give back a reservation that never reached the service; note a spent day
   * (a team gateway's refusal first teaches the ledger that it is one: then no day is spent here).
   */
  async #settleFailure(err: unknown): Promise<void> {
    const ledger = this.deps.ledger;
    if (!ledger || err instanceof QuotaSpentError) return;
    if (err instanceof DchubError && err.headers) await ledger.learnGateway(err.headers);
    if (
      (err instanceof NetworkError && err.status === undefined) ||
      (err instanceof DOMException && err.name === 'AbortError')
    )
      await ledger.release();
    else if (
      err instanceof RateLimitError &&
      (err.body as { error?: string } | undefined)?.error === 'daily_limit_reached'
    )
      await ledger.exhaust(err.resetAt);
  }

  async #fetchThrough<T>(
    key: string,
    call: CallSpec,
    decode: AnswerDecoder<T>,
    opts: CallOptions,
    cache: ResponseCache | undefined,
  ): Promise<Fetched<T>> {
    let stored = cache ? await this.#stored(key, cache) : undefined;
    const storedRead = stored && cache ? this.#readStored(key, call, stored, decode, cache) : undefined;
    if (!storedRead) stored = undefined;
    const now = this.deps.now();
    if (stored && storedRead && stored.expiresAt > now && !opts.refresh) {
      cache!.stats.hits++;
      return fromCache(storedRead.value, stored, storedRead, now);
    }
    if (cache) cache.stats.misses++;
    // Another process asking the same question right now (a shared directory, a team's Redis): wait for its answer.
    const { release: claim, answer } = await this.#claim(key, call, decode, opts, cache);
    if (answer) return answer;
    try {
      // Got it: another process may have stored the answer between the first look and the claim.
      const landed = claim && cache ? await cache.load(key) : undefined;
      if (landed && landed.expiresAt > this.deps.now() && landed.storedAt !== stored?.storedAt) {
        const read = this.#readStored(key, call, landed, decode, cache!);
        if (read) return fromCache(read.value, landed, read, this.deps.now());
      }
      return await this.#send(key, call, decode, opts, cache, stored, storedRead);
    } finally {
      await claim?.();
    }
  }

  /**
   * The right to fetch `key` for every process sharing the store, or the answer another one fetched meanwhile. A
   * holder that died or stored nothing lets the waiters claim again (one of them asks), until the wait is over.
   */
  async #claim<T>(
    key: string,
    call: CallSpec,
    decode: AnswerDecoder<T>,
    opts: CallOptions,
    cache: ResponseCache | undefined,
  ): Promise<{ release?: () => Promise<void>; answer?: Fetched<T> }> {
    if (!cache?.store.claim || opts.refresh) return {};
    const until = Date.now() + (this.deps.waitMs ?? 30_000);
    for (;;) {
      const claim = await cache.store.claim(key, { waitMs: Math.max(0, until - Date.now()), signal: opts.signal });
      if (claim !== 'waited') return { release: claim };
      const theirs = await cache.load(key);
      const read =
        theirs && theirs.expiresAt > this.deps.now() ? this.#readStored(key, call, theirs, decode, cache) : undefined;
      if (theirs && read) {
        cache.stats.hits++;
        return { answer: fromCache(read.value, theirs, read, this.deps.now()) };
      }
      if (Date.now() >= until || opts.signal?.aborted) return {};
    }
  }

  /** The network part of a fetch: reserve, send, revalidate or store; a failure falls back to the stored answer. */
  async #send<T>(
    key: string,
    call: CallSpec,
    decode: AnswerDecoder<T>,
    opts: CallOptions,
    cache: ResponseCache | undefined,
    stored: StoredAnswer | undefined,
    storedRead: Decoded<T> | undefined,
  ): Promise<Fetched<T>> {
    const fallBack = (err: unknown) => this.#fallBack(err, stored, storedRead, cache);
    let warning: string | undefined;
    try {
      warning = await this.#reserve();
    } catch (err) {
      return fallBack(err);
    }
    let raw: RawResponse;
    try {
      raw = await this.deps.send(call.body === undefined ? 'get' : 'post', call.path, {
        searchParams: call.params,
        json: call.body,
        signal: opts.signal,
        headers: stored?.etag ? { 'If-None-Match': stored.etag } : undefined,
      });
    } catch (err) {
      await this.#failed(err, warning);
      return fallBack(err);
    }
    await this.deps.ledger?.correct(raw.headers);
    const at = this.deps.now();
    if (raw.status === 304 && stored && storedRead) {
      const refreshed: StoredAnswer = {
        ...stored,
        storedAt: at,
        expiresAt: at + lifetimeFor(call.path, at, storedRead.value),
      };
      cache!.stats.revalidated++;
      await cache!.save(key, refreshed, storedRead.value, storedRead);
      return deliver(storedRead.value, refreshed, {
        fromCache: true,
        stale: false,
        now: at,
        notes: storedRead,
        extra: warning,
      });
    }
    let d: Decoded<T>;
    try {
      d = decode(raw, this.#ctx(call));
    } catch (err) {
      // Never stored: a malformed, drifted or error answer leaves the last good one in place.
      if (err instanceof DchubError) return fallBack(err);
      throw err;
    }
    // A gateway's answer may be older than this call: kept as written that long ago, so its age stays true here.
    const writtenAt = at - (this.#relayFacts(raw)?.ageMs ?? 0);
    const answer = answerToKeep(raw, d, { path: call.path, writtenAt, mayStore: (t) => this.#mayStore(t) });
    // A preview is stored as a preview (so it is never served as full data), under this caller only;
    // an answer that echoes the key is never written down.
    if (cache && this.#mayStore(raw.text)) await cache.save(key, answer, d.value, d);
    return this.#fresh(d, answer, raw, at, warning);
  }

  /** Whether a text may be kept (never one that echoes the caller's key). */
  #mayStore(text: string): boolean {
    return this.deps.mayStore?.(text) ?? true;
  }

  /** One rule for every failed refresh: the last good answer, marked stale with its age and reason. */
  #fallBack<T>(
    err: unknown,
    stored: StoredAnswer | undefined,
    storedRead: Decoded<T> | undefined,
    cache: ResponseCache | undefined,
  ): Fetched<T> {
    const reason = staleReason(err);
    if (!stored || !storedRead || reason === undefined) throw err;
    cache!.stats.staleServed++;
    return deliver(storedRead.value, stored, {
      fromCache: true,
      stale: true,
      now: this.deps.now(),
      reason,
      notes: storedRead,
    });
  }

  /** An answer just fetched, as delivered: the allowance warning, the relay's account, a gateway's notice. */
  #fresh<T>(
    d: Decoded<T>,
    answer: StoredAnswer,
    raw: RawResponse,
    at: number,
    warning: string | undefined,
  ): Fetched<T> {
    return deliver(d.value, answer, {
      fromCache: false,
      stale: false,
      now: at,
      notes: d,
      extra: warning,
      relay: this.#relayFacts(raw),
      notice: gatewayNotice(raw.headers),
    });
  }

  /**
   * How the relay or the team gateway obtained this answer. Read only from a relay the client was
   * told of, or from an answer that says it is a gateway's (the service itself sets neither header).
   */
  #relayFacts(raw: RawResponse): AnswerFacts | undefined {
    return this.deps.relayed || isGatewayAnswer(raw.headers) ? readAnswerHeader(raw.headers) : undefined;
  }
}
