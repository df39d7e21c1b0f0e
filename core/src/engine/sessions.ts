import { MCP_DAILY_ALLOWANCE, QuotaLedger } from '../cache/ledger.js';
import type { KeyValueStore } from '../cache/store.js';
import { DEFAULT_BASE_URL, type DchubClient } from '../client.js';
import { loadStoredKey } from '../credentials.js';
import { createCallerClient } from '../connect.js';
import { parseDeriveMode } from '../derive/policy.js';
import { DchubError, ValidationError } from '../errors.js';
import { normalizeBaseUrl } from '../http/baseurl.js';
import type { McpToolClient } from '../mcp.js';
import { DirectoryStore, defaultCacheDir } from '../node.js';
import { defaultTier } from '../plans.js';

/**
 * The callers an engine serves: one session per `Client` of the host (its service, key, cache
 * directory and settings), each a caller client of core over a directory store — the store the
 * `dchub` CLI uses, so every process on one machine shares answers and the daily allowance.
 */

/** What a host opens a session with (the Python API's names); `env` is the host's current environment. */
export interface OpenParams {
  base_url?: string | null;
  api_key?: string | null;
  cache_dir?: string | null;
  cache?: boolean;
  /** Seconds for one call, retries included. */
  timeout?: number | null;
  retries?: number | null;
  tier?: string | null;
  derive?: string | boolean | null;
  env?: Record<string, string | undefined>;
}

export type LogLine = (level: 'debug' | 'info' | 'warning', message: string) => void;

/**
 * What one engine keeps parsed in memory beside the cache directory: about 2 MB of answer text (five 400-row queue
 * answers). A notebook asks the same few questions again; reading an older one from disk costs milliseconds, and a
 * long-lived engine stays small (the parsed value weighs several times its text).
 */
const ENGINE_PARSED_CHARS = 2_000_000;

const given = (v: string | null | undefined): string | undefined => (v === null || v === undefined ? undefined : v);

/** One caller: its client, ledger and store, and the clock a host may set for a call (tests move time). */
export class Session {
  readonly client: DchubClient;
  readonly ledger: QuotaLedger;
  readonly store: KeyValueStore;
  readonly cacheDir: string;
  readonly hasKey: boolean;
  /** What the host should tell its user once (the cache directory could not be written). */
  readonly notes: string[] = [];
  /** The host's clock for the current call (ms); undefined: the real one. */
  clock: number | undefined;
  readonly #apiKey: string | undefined;
  #mcp: Promise<McpToolClient> | undefined;

  constructor(params: Record<string, unknown>, log: LogLine) {
    // What a host sent, read as the open parameters (each checked below).
    const p: OpenParams = params;
    const env = p.env ?? {};
    const derive = parseDeriveMode(p.derive ?? env.DCHUB_DERIVE);
    const deriveGiven = p.derive ?? env.DCHUB_DERIVE;
    if (deriveGiven !== undefined && deriveGiven !== null && deriveGiven !== '' && derive === undefined) {
      throw new ValidationError('derive', `must be off, exact or widen (or False), got ${JSON.stringify(deriveGiven)}`);
    }
    const base = given(p.base_url) ?? (env.DCHUB_BASE_URL?.trim() || DEFAULT_BASE_URL);
    let baseUrl: string;
    try {
      baseUrl = normalizeBaseUrl(base.trim());
    } catch (err) {
      const words = err instanceof DchubError ? err.message.replace(/^base URL /, '') : 'is not a valid URL';
      throw new ValidationError(
        'base_url',
        words.replace(/--api-key or DCHUB_API_KEY \(or the key field\)/, 'api_key'),
      );
    }
    const key = (given(p.api_key) ?? env.DCHUB_API_KEY ?? '').trim();
    this.#apiKey = key || undefined;
    this.hasKey = key !== '';
    this.cacheDir = given(p.cache_dir) || env.DCHUB_CACHE_DIR?.trim() || defaultCacheDir(env);
    const timeout = p.timeout ?? 30;
    if (!(typeof timeout === 'number' && timeout > 0))
      throw new ValidationError('timeout', `must be a number of seconds above 0, got ${JSON.stringify(timeout)}`);
    const retries = p.retries ?? 2;
    if (!(Number.isInteger(retries) && retries >= 0 && retries <= 10))
      throw new ValidationError('retries', `must be a whole number from 0 to 10, got ${JSON.stringify(retries)}`);
    const { client, ledger, store } = createCallerClient({
      baseUrl,
      apiKey: this.#apiKey,
      store: new DirectoryStore(this.cacheDir, {
        onUnwritable: (why) => {
          this.notes.push(why);
          log('warning', why);
        },
      }),
      cache: p.cache !== false,
      parsedChars: ENGINE_PARSED_CHARS,
      derive,
      tier: given(p.tier),
      timeoutMs: timeout * 1000,
      retries,
      now: () => this.clock ?? Date.now(),
      fetch: loggingFetch(log),
    });
    this.client = client;
    this.ledger = ledger;
    this.store = store;
  }

  /**
   * A session as a host opens it: the key given, else DCHUB_API_KEY, else the one `dchub login` stored
   * (a Python `Client()` and the Jupyter relay find it as the CLI does).
   */
  static async open(params: Record<string, unknown>, log: LogLine): Promise<Session> {
    const p: OpenParams = params;
    const env = p.env ?? {};
    if ((p.api_key === null || p.api_key === undefined) && env.DCHUB_API_KEY === undefined) {
      const base = given(p.base_url) ?? (env.DCHUB_BASE_URL?.trim() || DEFAULT_BASE_URL);
      const stored = await loadStoredKey(base, env).catch(() => undefined);
      if (stored) return new Session({ ...params, api_key: stored }, log);
    }
    return new Session(params, log);
  }

  /** The caller's MCP client: the tier's MCP allowance in the same store (the CLI's `dchub tool` shares it). */
  mcp(): Promise<McpToolClient> {
    this.#mcp ??= import('../mcp.js').then(({ McpToolClient }) => {
      const ledger = new QuotaLedger(this.store, `${this.client.callerId}:mcp`, {
        tier: defaultTier(this.#apiKey),
        allowance: MCP_DAILY_ALLOWANCE,
        now: () => this.clock ?? Date.now(),
      });
      return new McpToolClient(this.client, { apiKey: this.#apiKey, ledger });
    });
    return this.#mcp;
  }

  /** The key, only to redact it from what leaves the engine. */
  get secret(): string | undefined {
    return this.#apiKey;
  }

  async close(): Promise<void> {
    const mcp = await this.#mcp?.catch(() => undefined);
    await mcp?.close();
  }
}

/** `fetch` that reports each answer's status (method and path only: never the query, headers or key). */
function loggingFetch(log: LogLine): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? (input instanceof URL ? input.href : (input as string)));
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    try {
      const res = await fetch(input, init);
      log('debug', `${method} ${url.pathname} -> ${res.status}`);
      return res;
    } catch (err) {
      log('debug', `${method} ${url.pathname} failed: ${err instanceof Error ? err.name : 'error'}`);
      throw err;
    }
  };
}
