import type { KyInstance, Options as KyOptions } from 'ky';
import {
  DchubError,
  MAX_RETRY_WAIT_SECONDS,
  NetworkError,
  RateLimitError,
  errorFromResponse,
  retryAfterSeconds,
} from '../errors.js';
import { redirectSafeFetch } from './redirects.js';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface SendInit {
  searchParams?: URLSearchParams;
  json?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  /** Bound on one call's whole wait, retries and redirects included. */
  timeoutMs: number;
  retries: number;
  fetch?: typeof fetch;
  /** Counts each request put on the wire. */
  onSend?: () => void;
}

type Ky = typeof import('ky');
let kyModule: Promise<Ky> | undefined;
/**
 * ky, loaded by the first request: its module tries fetch's Request when it loads, and in Node that loads all of
 * Node's fetch (undici, about 17 MB resident), which an answer read from the cache never needs. (A bundler for the
 * browser keeps it in the same file.)
 */
const loadKy = (): Promise<Ky> => (kyModule ??= import(/* webpackMode: "eager" */ 'ky'));

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The wire: ky with one timeout per call, retries for idempotent calls (short waits only: a daily
 * cap or a Retry-After beyond a few seconds fails at once), redirects followed by hand so the key
 * stays on the configured origin, and every failure mapped to a typed error.
 */
export class Transport {
  #http: Promise<KyInstance> | undefined;
  readonly #timeoutMs: number;
  readonly #baseUrl: string;
  readonly #opts: TransportOptions; // #private: the key in it is never a property anything can print

  constructor(opts: TransportOptions) {
    this.#opts = opts;
    this.#baseUrl = opts.baseUrl;
    this.#timeoutMs = opts.timeoutMs;
  }

  async #create(): Promise<KyInstance> {
    const { default: ky } = await loadKy();
    return ky.create(kyOptions(this.#opts));
  }

  /** Sends one request; answers (2xx and 304) come back raw, failures as typed errors. */
  async send(method: 'get' | 'post', path: string, init: SendInit = {}): Promise<RawResponse> {
    // One timeout bounds the whole call: retries and backoff included.
    const deadline = AbortSignal.timeout(this.#timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    let response: Response;
    const { HTTPError, TimeoutError } = await loadKy();
    try {
      const http = await (this.#http ??= this.#create());
      response = await http(path.replace(/^\/+/, ''), {
        method,
        searchParams: init.searchParams,
        json: init.json,
        signal,
        headers: init.headers,
      });
    } catch (err) {
      if (err instanceof HTTPError) {
        const text = await err.response.text().catch(() => '');
        if (err.response.status === 304) return { status: 304, headers: err.response.headers, text };
        const failed = errorFromResponse(err.response.status, parseJson(text) ?? text, err.response.headers);
        failed.headers = err.response.headers;
        throw failed;
      }
      const timedOut = err instanceof TimeoutError || (deadline.aborted && !init.signal?.aborted);
      if (timedOut)
        throw new NetworkError(`${path}: no answer within ${Math.round(this.#timeoutMs / 1000)} s`, {
          timeout: true,
          cause: err,
        });
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      if (err instanceof DchubError) throw err;
      const reason =
        err instanceof Error
          ? err.cause instanceof Error
            ? `${err.message}: ${err.cause.message}`
            : err.message
          : String(err);
      // The service answered, then the connection broke: not "cannot reach".
      if (droppedMidAnswer(err))
        throw new NetworkError(`${path}: the connection dropped before the whole answer arrived (${reason})`, {
          cause: err,
        });
      throw new NetworkError(`${path}: cannot reach ${this.#baseUrl} (${reason})`, { cause: err });
    }
    const text = await response.text().catch((err: unknown) => {
      throw new NetworkError(`${path}: connection dropped while reading the answer`, { cause: err });
    });
    return { status: response.status, headers: response.headers, text };
  }
}

function kyOptions(opts: TransportOptions): KyOptions {
  const base = opts.baseUrl;
  const key = opts.apiKey;
  return {
    prefixUrl: base,
    timeout: opts.timeoutMs,
    fetch: redirectSafeFetch(opts.fetch),
    retry: {
      limit: opts.retries,
      methods: ['get', 'head', 'options'],
      statusCodes: [408, 429, 500, 502, 503, 504],
      afterStatusCodes: [413, 429, 503],
      maxRetryAfter: MAX_RETRY_WAIT_SECONDS * 1000,
      backoffLimit: 4_000,
      // 80-120% of the exponential delay, so many clients do not retry in step.
      jitter: (delay: number) => delay * (0.8 + Math.random() * 0.4),
      shouldRetry: async ({ error }) => ((await isLongWait(error)) ? false : undefined),
    },
    hooks: {
      beforeRequest: [
        (request) => {
          // The first hop always goes to the configured service; redirectSafeFetch guards the rest.
          if (key && request.url.startsWith(base)) request.headers.set('X-API-Key', key);
          opts.onSend?.();
        },
      ],
    },
  };
}

/** A connection the service closed part way through its answer (undici's socket error, a reset, a termination). */
function droppedMidAnswer(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const words = typeof cause?.message === 'string' ? cause.message : '';
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || /other side closed|terminated/i.test(words);
}

/** A 429/503 that asks for a long wait or says the day is spent: fail now, retrying would only hang. */
async function isLongWait(error: Error): Promise<boolean> {
  const { HTTPError } = await loadKy();
  if (!(error instanceof HTTPError) || (error.response.status !== 429 && error.response.status !== 503)) return false;
  const wait = retryAfterSeconds(error.response.headers.get('retry-after'));
  if (wait !== undefined && wait > MAX_RETRY_WAIT_SECONDS) return true;
  if (error.response.status !== 429) return false;
  const text = await error.response
    .clone()
    .text()
    .catch(() => '');
  const e = errorFromResponse(429, parseJson(text) ?? text, error.response.headers);
  return e instanceof RateLimitError && e.daily;
}
