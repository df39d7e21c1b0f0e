import { z } from 'zod';
import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS, endpointPath } from './endpoints.js';
import { positiveIdArg } from './facilities.js';
import {
  AgentCapabilities,
  AgentFacilities,
  AgentFacilitiesQuery,
  AgentStats,
  AgentWhoami,
  KeyClaimAnswer,
  KeyClaimRequest,
  Onboard,
  OnboardQuery,
  ReceiptDetail,
  ReceiptList,
  type AgentFacilitiesT,
  type AgentWhoamiT,
  type KeyClaimAnswerT,
  type OnboardT,
  type ReceiptListT,
  type ReceiptT,
} from './schemas/agent.js';
import { recordsTable, tableFromRecords, type Table } from './table.js';
import { parseParams } from './validate.js';

export type AgentCapabilitiesT = z.infer<typeof AgentCapabilities>;
export type AgentStatsT = z.infer<typeof AgentStats>;
export type ReceiptDetailT = z.infer<typeof ReceiptDetail>;

const query = (o: Record<string, string | number | boolean | null | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  return p;
};

// ---------------------------------------------------------------- keys

/**
 * POST /api/v1/keys/claim: issues a free key (idempotent per client name and caller address).
 * The key is handed back to the caller only: it is not logged, cached or stored here.
 */
export async function claimKey(
  client: DchubClient,
  q: { client_name?: string | null; email?: string | null; intended_use?: string | null } = {},
  opts: CallOptions = {},
): Promise<KeyClaimAnswerT> {
  const f = parseParams(KeyClaimRequest, q);
  const body = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
  return client.postJson(ENDPOINTS.keyClaim.path, body, KeyClaimAnswer, opts);
}

// ---------------------------------------------------------------- identity and description

/**
 * GET /api/agent/whoami: the caller's profile and calls left today. Not cached unless `cache: true`.
 * The calls left, when stated, make the quota ledger's allowance known.
 */
export async function whoami(client: DchubClient, opts: CallOptions = {}): Promise<AgentWhoamiT> {
  const me = await client.getJson(ENDPOINTS.agentWhoami.path, AgentWhoami, undefined, { cache: false, ...opts });
  const left = me.authenticated ? me.agent.api_calls_remaining : undefined;
  if (typeof left === 'number' && Number.isFinite(left)) await client.ledger?.confirm({ remaining: left });
  return me;
}

/** GET /api/agent/capabilities: what the agent interface offers. */
export const agentCapabilities = (client: DchubClient, opts: CallOptions = {}): Promise<AgentCapabilitiesT> =>
  client.getJson(ENDPOINTS.agentCapabilities.path, AgentCapabilities, undefined, opts);

export const capabilitiesTable = (a: AgentCapabilitiesT): Table =>
  recordsTable(
    a.capabilities.map((c) => ({ ...c, params: Array.isArray(c.params) ? c.params.join(', ') : c.params })),
    ['name', 'endpoint', 'description', 'params'],
  );

export const agentEndpointsTable = (a: AgentCapabilitiesT): Table =>
  recordsTable(a.endpoints, ['method', 'path', 'auth']);

/** GET /api/agent/stats: global counts. */
export const agentStats = (client: DchubClient, opts: CallOptions = {}): Promise<AgentStatsT> =>
  client.getJson(ENDPOINTS.agentStats.path, AgentStats, undefined, opts);

// ---------------------------------------------------------------- facilities for agents

/** GET /api/agent/facilities: facility search where `country` is a country name (a code also matches). */
export async function agentFacilities(
  client: DchubClient,
  q: { q?: string | null; country?: string | null; limit?: number | string | null } = {},
  opts: CallOptions = {},
): Promise<AgentFacilitiesT> {
  const f = parseParams(AgentFacilitiesQuery, q);
  return client.getJson(
    ENDPOINTS.agentFacilities.path,
    AgentFacilities,
    query({ q: f.q, country: f.country, limit: f.limit }),
    opts,
  );
}

export const agentFacilitiesTable = (a: AgentFacilitiesT): Table =>
  recordsTable(a.facilities, [
    'id',
    'name',
    'provider',
    'operator',
    'city',
    'state',
    'country',
    'country_name',
    'market',
    'power_mw',
    'status',
    'latitude',
    'longitude',
  ]);

// ---------------------------------------------------------------- onboarding

/** GET /api/v1/onboard: guidance for browse, mcp, connector or rest clients (default: detected). */
export async function onboard(client: DchubClient, type?: string | null, opts: CallOptions = {}): Promise<OnboardT> {
  const f = parseParams(OnboardQuery, { type });
  return client.getJson(ENDPOINTS.onboard.path, Onboard, query({ type: f.type }), opts);
}

// ---------------------------------------------------------------- receipts

/** GET /api/v1/receipts: published model-evaluation runs. */
export const receipts = (client: DchubClient, opts: CallOptions = {}): Promise<ReceiptListT> =>
  client.getJson(ENDPOINTS.receipts.path, ReceiptList, undefined, opts);

export const RECEIPT_COLUMNS = [
  'run_id',
  'model_id',
  'platform',
  'platform_label',
  'status',
  'evaluated_at',
  'published_at',
  'model_replies',
  'api_call_count',
  'http_5xx_seen',
  'verdict_vs_previous',
  'verdict_sha256',
  'harness_notes',
] as const;

export const receiptsTable = (l: ReceiptListT): Table =>
  tableFromRecords(
    l.receipts.map((r: ReceiptT) => ({ ...r, api_call_count: r.api_calls.length })),
    RECEIPT_COLUMNS,
    { asOf: l.as_of, note: `${l.counts.published_runs} published runs` },
  );

/** GET /api/v1/receipts/{run_id}: one run with its full call record. */
export async function receipt(
  client: DchubClient,
  runId: number | string,
  opts: CallOptions = {},
): Promise<ReceiptDetailT> {
  return client.getJson(
    endpointPath(ENDPOINTS.receipt, { run_id: positiveIdArg('run_id', runId) }),
    ReceiptDetail,
    undefined,
    opts,
  );
}

export const RECEIPT_CALL_COLUMNS = [
  'n',
  'method',
  'url',
  'executed',
  'http_status',
  'response_bytes',
  'response_sha256',
  'response_truncated_by_harness',
  'response_excerpt',
] as const;

/** The API calls of one run, in order. */
export const receiptCallsTable = (r: ReceiptT): Table =>
  tableFromRecords(r.api_calls, RECEIPT_CALL_COLUMNS, { asOf: r.published_at });
