import { MCP_DAILY_ALLOWANCE, QuotaLedger } from '../cache/ledger.js';
import { answerHeader } from '../cache/relayed.js';
import { gatewayNotice } from '../cache/gateway.js';
import { ENDPOINTS, endpointAt } from '../endpoints.js';
import { DchubError, QuotaSpentError, ValidationError } from '../errors.js';
import type { RawResponse } from '../http/transport.js';
import { isCacheable } from '../resource.js';
import { fetchAnswer } from '../resource-call.js';
import type { KeyValueStore } from '../cache/store.js';
import type { DchubClient } from '../client.js';

/**
 * The Jupyter relay, answered by core: a request the browser sent to `<jupyter>/dchub/proxy/<path>`
 * is answered through the server's caller client — its cache directory, its daily ledger and its
 * wide answers, the ones the kernels and the `dchub` CLI on that machine use — and the key is added
 * only here. Only the API is relayed (`api/…`, `mcp`, `openapi.json`).
 */

/**
 * Whose client answers relayed requests: an engine's session (the Jupyter relay), or a team
 * gateway's caller over Redis. `secret` is the key, only to keep it out of what goes back.
 */
export interface RelayCaller {
  readonly client: DchubClient;
  readonly store: KeyValueStore;
  readonly secret: string | undefined;
  readonly hasKey: boolean;
}

export interface RelayParams {
  method: string;
  /** The path under the relay, as sent (percent-encoded), without the leading slash. */
  path: string;
  /** The query string as sent, without `?`. */
  query?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RelayAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Paths the relay serves; anything else is refused with 404. */
const RELAYED = /^(?:api\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]+|mcp|openapi\.json)$/;

/** Whether `path` (as sent) names part of the API and cannot climb out of it. */
export function isRelayedPath(path: string): boolean {
  if (!RELAYED.test(path)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return !decoded.split('/').some((s) => s === '' || s === '.' || s === '..') && !/[\\?#]/.test(decoded);
}

/** Request headers an MCP exchange needs; cookies and Jupyter's authorization never leave. */
const MCP_REQUEST_HEADERS = ['accept', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'];
/** Answer headers passed back to the browser. */
const ANSWER_HEADERS = [
  'content-type',
  'content-disposition',
  'retry-after',
  'mcp-session-id',
  'x-total-available',
  'x-market-brief-mode',
  'x-market-brief-tier',
  'x-canonical-path',
];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): RelayAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** A failure as the service would have answered it, so the browser's core reads the same error. */
function failure(err: unknown): RelayAnswer {
  if (err instanceof QuotaSpentError) {
    return json(429, {
      error: 'daily_limit_reached',
      message: err.message,
      resets_at: err.resetAt,
      limit: err.limit,
      _relay: true,
    });
  }
  if (err instanceof DchubError && err.status !== undefined && err.body !== undefined) {
    return typeof err.body === 'string'
      ? { status: err.status, headers: { 'content-type': 'text/plain' }, body: err.body }
      : json(err.status, err.body);
  }
  if (err instanceof DchubError && err.kind === 'validation')
    return json(400, { error: err.message, param: (err as ValidationError).param });
  // Unreachable (a refused redirect included: its 3xx is the upstream's, not an answer) is a bad gateway.
  if (err instanceof DchubError)
    return json(err.kind === 'network' ? 502 : (err.status ?? 502), {
      error: err.kind === 'network' ? 'upstream_unreachable' : 'upstream_error',
      message: err.message,
    });
  throw err;
}

/** A raw answer kept as served (text, and the headers a reader needs again). */
interface RawAnswer {
  text: string;
  headers: Record<string, string>;
}

const rawDecoder = (raw: RawResponse): { value: RawAnswer; warnings: string[] } => {
  const headers: Record<string, string> = {};
  for (const h of ANSWER_HEADERS) {
    const v = raw.headers.get(h);
    if (v !== null) headers[h] = v;
  }
  if (/json/i.test(headers['content-type'] ?? '')) JSON.parse(raw.text); // a malformed answer is never stored
  return { value: { text: raw.text, headers }, warnings: [] };
};

/** Headers whose value does not echo the key (the browser never gets it, not even in an ETag). */
function withoutSecret(headers: Record<string, string>, secret: string | undefined): Record<string, string> {
  return secret ? Object.fromEntries(Object.entries(headers).filter(([, v]) => !v.includes(secret))) : headers;
}

/**
 * Whether the endpoint asked may be answered from the cache (its descriptor says: GETs unless it
 * asks fresh — whoami, the brief diff —, POSTs that are pure computations); a path no descriptor
 * names is cached when it is a GET (the OpenAPI document).
 */
function mayCache(method: string, path: string): boolean {
  const e = endpointAt(method, path);
  return e ? isCacheable(e) : method === 'GET';
}

async function relayRest(
  s: RelayCaller,
  method: string,
  path: string,
  query: string,
  body: string | undefined,
  signal: AbortSignal,
): Promise<RelayAnswer> {
  const params = new URLSearchParams(query);
  if (method === 'GET' && path === ENDPOINTS.queue.path) {
    // Through the derive setting: answered from the shared wide answers, or widened for later questions.
    const r = await fetchAnswer(s.client, ENDPOINTS.queue, Object.fromEntries(params), { signal });
    return json(200, r.data, answerHeader(r));
  }
  if (method === 'GET') {
    const r = await s.client.fetchText(path, rawDecoder, params, { signal, cache: mayCache(method, path) });
    return {
      status: 200,
      headers: { 'content-type': 'application/json', ...withoutSecret(r.data.headers, s.secret), ...answerHeader(r) },
      body: r.data.text,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return json(400, { error: 'the request body is not JSON' });
  }
  const reader = { what: 'answer', read: (v: unknown) => v };
  const r = await s.client.fetchJson(path, reader, undefined, { signal, cache: mayCache(method, path) }, parsed);
  return json(200, r.data, answerHeader(r));
}

/** How many tools/call a JSON-RPC body (one message or a batch) carries. */
function toolCalls(body: string | undefined): number {
  try {
    const b = JSON.parse(body ?? 'null') as unknown;
    const list = Array.isArray(b) ? b : [b];
    return list.filter((m) => (m as { method?: unknown } | null)?.method === 'tools/call').length;
  } catch {
    return 0;
  }
}

/** The relay's facts on an MCP answer: a call past an assumed allowance, a team gateway's notice (none: no header). */
function mcpNote(
  client: DchubClient,
  allowance: string | undefined,
  notice: string | undefined,
): Record<string, string> {
  if (!allowance && !notice) return {};
  return answerHeader({
    fromCache: false,
    stale: false,
    preview: false,
    fetchedAt: client.now(),
    ageMs: 0,
    warnings: [],
    ...(allowance ? { allowance } : {}),
    ...(notice ? { notice } : {}),
  });
}

/**
 * MCP passes through (sessions and streams are the SDK's); each tools/call spends the caller's MCP
 * allowance, unless the service is a team gateway, which keeps it (the ledger learns so from its answers).
 */
async function relayMcp(s: RelayCaller, p: RelayParams, signal: AbortSignal): Promise<RelayAnswer> {
  const calls = toolCalls(p.body);
  const ledger = new QuotaLedger(s.store, `${s.client.callerId}:mcp`, {
    tier: s.hasKey ? 'free' : 'anonymous',
    allowance: MCP_DAILY_ALLOWANCE,
    now: s.client.now,
  });
  let allowance: string | undefined;
  if (calls) {
    const r = await ledger.reserveCall(calls);
    if (!r.ok) {
      const snap = await ledger.snapshot();
      return json(429, {
        error: 'daily_limit_reached',
        message: `daily MCP allowance of ${snap.limit} calls is spent; it resets at ${snap.resetsAt}`,
        resets_at: snap.resetsAt,
        limit: snap.limit,
        _relay: true,
      });
    }
    // Past an assumed allowance the call goes out, and the browser's tool result says so.
    allowance = r.warning;
  }
  const headers = new Headers();
  for (const h of MCP_REQUEST_HEADERS) if (p.headers?.[h] !== undefined) headers.set(h, p.headers[h]);
  if (s.secret) headers.set('X-API-Key', s.secret);
  const res = await s.client.safeFetch(`${s.client.baseUrl}mcp${p.query ? `?${p.query}` : ''}`, {
    method: p.method,
    headers,
    body: p.method === 'GET' || p.method === 'DELETE' ? undefined : (p.body ?? ''),
    signal,
  });
  await ledger.learnGateway(res.headers);
  const notice = gatewayNotice(res.headers);
  const out = mcpNote(s.client, allowance, notice && !(s.secret && notice.includes(s.secret)) ? notice : undefined);
  res.headers.forEach((v, k) => {
    // A header that echoes the key never reaches the browser (the body is redacted line by line).
    if ((ANSWER_HEADERS.includes(k) || k.startsWith('x-ratelimit-')) && !(s.secret && v.includes(s.secret))) out[k] = v;
  });
  return { status: res.status, headers: out, body: await res.text() };
}

/**
 * Query parameters that carry credentials: the real service's (`api_key`, session tokens) and the
 * host's own (the Jupyter server's `token`, a gateway token). None is sent on, none is in a cache key.
 */
export const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set([
  'api_key',
  'apikey',
  'token',
  'session_token',
  'dchub_session',
  'dchub_token',
  'access_token',
  '_xsrf',
]);

/** The query as sent, less every credential parameter (any case). */
export function queryWithoutCredentials(query: string): string {
  const params = new URLSearchParams(query);
  for (const name of [...params.keys()]) if (CREDENTIAL_PARAMS.has(name.toLowerCase())) params.delete(name);
  return params.toString();
}

/** Answers one relayed request (never throws a DchubError: failures are answers, as the service gives them). */
export async function relayRequest(s: RelayCaller, p: RelayParams, signal: AbortSignal): Promise<RelayAnswer> {
  const method = String(p.method ?? '').toUpperCase();
  const path = String(p.path ?? '');
  // Before anything is sent or keyed: a host's own credentials never travel on.
  p = { ...p, query: queryWithoutCredentials(p.query ?? '') };
  if (!isRelayedPath(path))
    return json(404, { error: 'not_relayed', message: 'the DC Hub relay serves api/..., mcp and openapi.json only' });
  try {
    if (path === 'mcp') return await relayMcp(s, { ...p, method }, signal);
    if (method !== 'GET' && method !== 'POST')
      return json(
        405,
        { error: 'method_not_allowed', message: 'the relay passes GET and POST' },
        { allow: 'GET, POST' },
      );
    return await relayRest(s, method, `/${path}`, p.query ?? '', p.body, signal);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    if (err instanceof DchubError) return failure(err);
    return json(502, {
      error: 'upstream_unreachable',
      message: `cannot reach the DC Hub service (${err instanceof Error ? err.name : 'error'})`,
    });
  }
}
