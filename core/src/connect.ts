import { QuotaLedger } from './cache/ledger.js';
import { ResponseCache } from './cache/responses.js';
import { MemoryStore, type KeyValueStore } from './cache/store.js';
import { checkApiKey } from './api-key.js';
import { callerIdOf, DEFAULT_BASE_URL, DchubClient, type ClientOptions } from './client.js';
import { normalizeBaseUrl } from './http/baseurl.js';
import { defaultTier } from './plans.js';

/**
 * A caller's client, set up once for every host: the client, its cached answers and its daily
 * ledger, all kept in one store (the CLI's directory, OfficeRuntime.storage, IndexedDB), the
 * ledger named per service and key so that answers and allowances never mix between callers.
 * (A caller behind a relay keeps neither: `new DchubClient({ relayed: true })`, ClientOptions.relayed.)
 */
export interface CallerClientOptions extends Omit<ClientOptions, 'cache' | 'ledger' | 'relayed'> {
  /** Where cached answers and the daily ledger are kept (default: in memory). */
  store?: KeyValueStore;
  /** `false`: answers are neither read from nor written to the store (the ledger still is). */
  cache?: boolean;
  /** Names the caller's ledger; default `callerLedgerId(baseUrl, apiKey)`. */
  ledgerId?: string;
  /** Characters of answers kept parsed in memory besides the store (ResponseCache's maxParsedChars). */
  parsedChars?: number;
}

export interface CallerClient {
  client: DchubClient;
  ledger: QuotaLedger;
  store: KeyValueStore;
  /** The ledger's name: the service host and a fingerprint of the key (never the key). */
  ledgerId: string;
}

/** The ledger name of a caller: `<service host>:<key fingerprint>` (`anon` without a key), as its client names it. */
export function callerLedgerId(baseUrl: string | undefined, apiKey: string | undefined): string {
  return `${new URL(normalizeBaseUrl(baseUrl ?? DEFAULT_BASE_URL)).host}:${callerIdOf(checkApiKey(apiKey))}`;
}

/**
 * The client of one caller: cached answers and the daily ledger in `store`. A keyed caller's tier
 * is assumed (Free) until the service's first answer tells it, unless `tier` states it.
 */
export function createCallerClient(opts: CallerClientOptions = {}): CallerClient {
  const { store = new MemoryStore(), cache, ledgerId: givenId, parsedChars, ...clientOpts } = opts;
  const ledgerId = givenId ?? callerLedgerId(opts.baseUrl, opts.apiKey);
  const ledger = new QuotaLedger(store, ledgerId, {
    tier: opts.tier ?? defaultTier(opts.apiKey),
    // A tier the caller states is taken as known; otherwise the allowance is assumed until the service
    // states it (X-RateLimit-Limit, whoami, a 429): the real service states none to keyless callers.
    confirmed: opts.tier !== undefined,
    now: opts.now,
  });
  const client = new DchubClient({
    ...clientOpts,
    ledger,
    cache: cache === false ? false : new ResponseCache(store, undefined, parsedChars),
  });
  return { client, ledger, store, ledgerId };
}
