import {
  QUEUE_LIMIT_DEFAULT,
  createCallerClient,
  DchubClient,
  IndexedDbStore,
  MCP_DAILY_ALLOWANCE,
  McpToolClient,
  MemoryStore,
  normalizeTier,
  QuotaLedger,
  quotaLine,
  type KeyValueStore
} from '@dchub/core';
import { ServerConnection } from '@jupyterlab/services';
import { proxyBaseUrl, relayRouteUrl, readRelayQuota, type CallsLeft } from './helpers';

/** `auto`: use the Jupyter server relay when it answers, else call the service directly. */
export type ConnectionPreference = 'auto' | 'proxy' | 'direct';

/** What the panel reads from the user's settings. */
export interface PanelConfig {
  /** Service root for direct calls (the relay uses the server's DCHUB_BASE_URL). */
  baseUrl: string;
  /** Maximum queue rows per search (1 to core's QUEUE_LIMIT_MAX). */
  limit: number;
  connection: ConnectionPreference;
  /** Re-check briefs for changes this often while the panel is open (0: only on demand). */
  briefsRefreshMinutes: number;
}

export const DEFAULT_CONFIG: PanelConfig = Object.freeze({
  baseUrl: 'https://dchub.cloud',
  limit: QUEUE_LIMIT_DEFAULT,
  connection: 'auto',
  briefsRefreshMinutes: 60
});

/** The relay's answer at `<base_url>/dchub/config`. */
export interface ProxyConfig {
  proxy: true;
  has_key: boolean;
  base_url: string;
}

/** How the panel currently reaches the service. */
export interface ConnectionState {
  mode: 'proxy' | 'direct';
  /** Where requests finally go (the relay's upstream, or the direct base URL). */
  serviceUrl: string;
  /** Whether a key is in use (held by the server in proxy mode, by this browser otherwise). */
  hasKey: boolean;
}

/** Browser storage slot of the key in direct mode (never the settings file, never a notebook). */
export const KEY_STORAGE = 'dchub:apiKey';

/**
 * IndexedDB database of the answers an earlier panel kept beside the relay's (dropped: the relay's cache is the one).
 */
const OLD_RELAY_CACHE = 'dchub-cache-proxy';

/**
 * Owns the DC Hub client. With the server extension present (JupyterLab), every call goes
 * through `<jupyter base>/dchub/proxy/` with Jupyter's own authentication and the server adds
 * the key; the browser never sees it, and the relay's cache and daily ledger (shared with the
 * server's kernels and the `dchub` CLI) are the only ones: the panel keeps neither. Without it
 * (JupyterLite), the service is called directly with a key the user typed, kept in localStorage,
 * and the answers and the ledger are kept in IndexedDB.
 */
export class Connection {
  private _config: PanelConfig = DEFAULT_CONFIG;
  private _proxy: ProxyConfig | null = null;
  private _client: DchubClient | null = null;
  /** The caller's ledger name (service host and caller), which the MCP ledger extends. */
  private _ledgerId = '';
  private _mcp: McpToolClient | null = null;
  private _mcpTier = '';
  private _clientError: Error | null = null;
  private _state: ConnectionState = { mode: 'direct', serviceUrl: '', hasKey: false };
  private readonly _listeners = new Set<(state: ConnectionState) => void>();
  private readonly _ready: Promise<void>;
  private readonly _stores = new Map<string, KeyValueStore>();
  /** The key typed in this page (null: read localStorage). */
  private _sessionKey: string | null = null;
  private _detected = false;

  /** `serverSettings`: the Jupyter server's (its base URL, token and fetch); tests pass their own. */
  constructor(private readonly _serverSettings: ServerConnection.ISettings = ServerConnection.makeSettings()) {
    this._ready = this._detect();
  }

  /** Calls `listener` whenever the client is rebuilt (settings, key or mode changed); returns an unsubscribe. */
  onChange(listener: (state: ConnectionState) => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  get state(): ConnectionState {
    return this._state;
  }

  get config(): PanelConfig {
    return this._config;
  }

  /** Resolves once the relay has been probed. */
  get ready(): Promise<void> {
    return this._ready;
  }

  /** Applies settings (rebuilds the client when what it depends on changed). */
  configure(config: PanelConfig): void {
    this._config = { ...config };
    // Before the relay probe answers, the mode is unknown; the probe builds the first client.
    if (this._detected) this._rebuild();
  }

  /** The client for the next call; throws when none can be made (bad base URL). */
  async client(): Promise<DchubClient> {
    await this._ready;
    if (!this._client) throw this._clientError ?? new Error('DC Hub: no client');
    return this._client;
  }

  /**
   * The MCP tool client bound to the current client (relay or direct, same key handling). In relay
   * mode the relay reserves each call on the server key's MCP allowance and the browser keeps none.
   * Directly, the caller's own MCP allowance: the tier the service confirmed for the REST calls (or,
   * before any answer, the Free assumption for a key), not the keyless 10 calls a day.
   */
  async mcp(): Promise<McpToolClient> {
    const client = await this.client();
    if (client.relayed) {
      if (this._mcp?.rest !== client) {
        void this._mcp?.close();
        // A relayed client's MCP client has no ledger of its own (core): the relay's is the one.
        this._mcp = new McpToolClient(client, { fetch: relayFetch(this._serverSettings) });
      }
      return this._mcp;
    }
    const keyed = this._state.hasKey;
    const snap = keyed ? await client.ledger?.snapshot().catch(() => undefined) : undefined;
    // Behind a team gateway the team's tier is the gateway's to know (the MCP ledger learns it keeps the allowance).
    const confirmed = snap?.confirmed && !snap.viaGateway ? normalizeTier(snap.tier) : 'anonymous';
    const tier = !keyed ? 'anonymous' : confirmed !== 'anonymous' ? confirmed : 'free';
    if (!this._mcp || this._mcp.rest !== client || this._mcpTier !== tier) {
      void this._mcp?.close();
      this._mcpTier = tier;
      const store = client.cache?.store ?? new MemoryStore();
      // One MCP ledger per caller and tier, so a tier learned later starts from its own allowance.
      // The MCP allowance of a tier is the spec's number, assumed (warned past, never refused) until
      // MCP answers state it in X-RateLimit-* headers or the service answers 429.
      const ledger = new QuotaLedger(store, `${this._ledgerId}:mcp:${tier}`, {
        tier,
        allowance: MCP_DAILY_ALLOWANCE
      });
      let mcp: McpToolClient | null = null;
      // MCP answers that carry X-RateLimit-* headers correct the MCP allowance (not the REST one).
      const observe = (res: Response) => {
        if (res.headers.has('x-ratelimit-limit') || res.headers.has('x-ratelimit-remaining'))
          void mcp?.ledger?.correct(res.headers);
      };
      mcp = new McpToolClient(client, {
        apiKey: this._readKey() || undefined,
        tier,
        ledger,
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          observe(res);
          return res;
        }
      });
      this._mcp = mcp;
    }
    return this._mcp;
  }

  /** Stores (or, with '', forgets) the key used for direct calls. */
  setApiKey(key: string): void {
    const k = key.trim();
    try {
      if (k) window.localStorage.setItem(KEY_STORAGE, k);
      else window.localStorage.removeItem(KEY_STORAGE);
    } catch {
      // Storage can be blocked (private mode); the key then lasts for this page only.
    }
    this._sessionKey = k;
    if (this._detected) this._rebuild();
  }

  /** Whether a direct-mode key is stored in this browser. */
  get hasStoredKey(): boolean {
    return !!this._readKey();
  }

  /**
   * Calls left today: in relay mode the relay's ledger (`GET dchub/quota`, no call spent), shared
   * with the server's kernels and the CLI; directly, this browser's ledger. Null when unknown.
   */
  async callsLeft(): Promise<CallsLeft | null> {
    const client = this._client;
    try {
      if (client?.relayed) {
        const url = relayRouteUrl(this._serverSettings.baseUrl, 'quota');
        const res = await ServerConnection.makeRequest(url, { method: 'GET', cache: 'no-cache' }, this._serverSettings);
        return res.ok ? readRelayQuota(await res.json()) : null;
      }
      if (!client?.ledger) return null;
      const snap = await client.ledger.snapshot();
      const gateway = snap.viaGateway ? { gatewayLine: quotaLine(snap) } : {};
      return { remaining: snap.remaining, limit: snap.limit, confirmed: snap.confirmed, shared: false, ...gateway };
    } catch {
      return null;
    }
  }

  private _readKey(): string {
    if (this._sessionKey !== null) return this._sessionKey;
    try {
      return window.localStorage.getItem(KEY_STORAGE) ?? '';
    } catch {
      return '';
    }
  }

  private async _detect(): Promise<void> {
    try {
      const url = relayRouteUrl(this._serverSettings.baseUrl, 'config');
      const res = await ServerConnection.makeRequest(url, { method: 'GET', cache: 'no-cache' }, this._serverSettings);
      if (res.ok) {
        const body = (await res.json()) as Partial<ProxyConfig>;
        if (body && body.proxy === true) {
          this._proxy = { proxy: true, has_key: body.has_key === true, base_url: String(body.base_url ?? '') };
          forgetOldRelayCache();
        }
      }
    } catch {
      // No Jupyter server (JupyterLite) or no relay: direct mode.
      this._proxy = null;
    }
    this._detected = true;
    this._rebuild();
  }

  private _store(name: string): KeyValueStore {
    let store = this._stores.get(name);
    if (!store) {
      store = typeof indexedDB !== 'undefined' ? new IndexedDbStore(name) : new MemoryStore();
      this._stores.set(name, store);
    }
    return store;
  }

  private _rebuild(): void {
    const useProxy = this._proxy !== null && this._config.connection !== 'direct';
    try {
      if (useProxy) {
        const proxy = this._proxy!;
        const settings = this._serverSettings;
        // The relay keeps the answers and the daily ledger (core: a relayed client keeps neither) and
        // says how each answer was obtained, for the banners.
        this._client = new DchubClient({
          baseUrl: proxyBaseUrl(settings.baseUrl),
          fetch: relayFetch(settings),
          relayed: true
        });
        this._ledgerId = '';
        this._state = { mode: 'proxy', serviceUrl: proxy.base_url, hasKey: proxy.has_key };
      } else {
        // Core's caller client: answers and the daily ledger in one store (IndexedDB, so both survive
        // reloads), the ledger named by the service's host and the caller, as the CLI names its own.
        const key = this._readKey();
        const caller = createCallerClient({
          baseUrl: this._config.baseUrl,
          apiKey: key || undefined,
          store: this._store('dchub-cache')
        });
        this._client = caller.client;
        this._ledgerId = caller.ledgerId;
        this._state = { mode: 'direct', serviceUrl: this._client.baseUrl.replace(/\/$/, ''), hasKey: !!key };
      }
      this._clientError = null;
    } catch (err) {
      this._client = null;
      this._clientError = err instanceof Error ? err : new Error(String(err));
      this._state = { mode: useProxy ? 'proxy' : 'direct', serviceUrl: this._config.baseUrl, hasKey: false };
    }
    for (const listener of this._listeners) listener(this._state);
  }
}

/** Drops the IndexedDB answers an earlier panel kept beside the relay's: never read again, they only took room. */
function forgetOldRelayCache(): void {
  try {
    if (typeof indexedDB !== 'undefined') indexedDB.deleteDatabase(OLD_RELAY_CACHE);
  } catch {
    // Storage can be blocked (private mode): then there is nothing to drop either.
  }
}

/**
 * A `fetch` for core's client that sends each request through `ServerConnection.makeRequest`,
 * so Jupyter's token and XSRF headers are added (and only ever sent to the Jupyter server).
 */
export function relayFetch(settings: ServerConnection.ISettings): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const method = request.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? undefined : await request.text();
    const headers = new Headers(request.headers);
    // `no-cache` (not Jupyter's default `no-store`) keeps makeRequest from appending a
    // cache-busting parameter that the relay would pass on to the service.
    const response = await ServerConnection.makeRequest(
      request.url,
      { method, headers, body, signal: init?.signal ?? request.signal, cache: 'no-cache' },
      settings
    );
    return response;
  };
}
