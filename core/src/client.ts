import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import type { z } from 'zod';
import {
  DchubError,
  NetworkError,
  SchemaDriftError,
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
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
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

/**
 * The HTTP transport every resource module calls: ky with timeouts and retries for GETs,
 * status → typed error mapping, and zod validation of each answer.
 */
export class DchubClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #http: KyInstance;

  constructor(opts: ClientOptions = {}) {
    this.baseUrl = normalizeBaseUrl(opts.baseUrl ?? DEFAULT_BASE_URL);
    this.#apiKey = opts.apiKey?.trim() || undefined;
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
      },
      hooks: {
        beforeRequest: [
          (request) => {
            // The key goes to the configured service only, never to a redirect target elsewhere.
            if (key && request.url.startsWith(base)) request.headers.set('X-API-Key', key);
          },
        ],
      },
    });
  }

  /** Whether a key is configured (the key itself is not readable). */
  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  async #send(method: 'get' | 'post', path: string, init: { searchParams?: URLSearchParams; json?: unknown; signal?: AbortSignal }): Promise<RawResponse> {
    let response: Response;
    try {
      response = await this.#http(path.replace(/^\/+/, ''), {
        method,
        searchParams: init.searchParams,
        json: init.json,
        signal: init.signal,
      });
    } catch (err) {
      if (err instanceof HTTPError) {
        const text = await err.response.text().catch(() => '');
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

  /** GET as text (CSV and other non-JSON answers). */
  async getText(path: string, searchParams?: URLSearchParams, opts: CallOptions = {}): Promise<RawResponse> {
    return this.#send('get', path, { searchParams, signal: opts.signal });
  }

  /** GET and validate a JSON answer against `schema`. */
  async getJson<S extends z.ZodType>(path: string, schema: S, searchParams?: URLSearchParams, opts: CallOptions = {}): Promise<z.output<S>> {
    const raw = await this.#send('get', path, { searchParams, signal: opts.signal });
    return this.#decode(path, raw, schema);
  }

  /** POST a JSON body and validate the answer. Not retried: only idempotent calls are. */
  async postJson<S extends z.ZodType>(path: string, body: unknown, schema: S, opts: CallOptions = {}): Promise<z.output<S>> {
    const raw = await this.#send('post', path, { json: body, signal: opts.signal });
    return this.#decode(path, raw, schema);
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
