import type { z } from 'zod';
import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { answerTable, tableFor } from './resource.js';
import { byClient, byInput, fetchData } from './resource-call.js';
import type {
  AgentCapabilities,
  AgentStats,
  AgentWhoamiT,
  OnboardT,
  ReceiptDetail,
  ReceiptT,
} from './schemas/agent.js';
import { recordsTable, type Table } from './table.js';

export { RECEIPT_CALL_COLUMNS, RECEIPT_COLUMNS } from './resources/agent.js';

export type AgentCapabilitiesT = z.infer<typeof AgentCapabilities>;
export type AgentStatsT = z.infer<typeof AgentStats>;
export type ReceiptDetailT = z.infer<typeof ReceiptDetail>;

// ---------------------------------------------------------------- keys

/**
 * POST /api/v1/keys/claim: issues a free key (idempotent per client name and caller address).
 * The key is handed back to the caller only: it is not logged, cached or stored here.
 */
export const claimKey = /* @__PURE__ */ byInput(ENDPOINTS.keyClaim);

// ---------------------------------------------------------------- identity and description

/**
 * GET /api/agent/whoami: the caller's profile and calls left today. Not cached unless `cache: true`.
 * The calls left, when stated, make the quota ledger's allowance known.
 */
export async function whoami(client: DchubClient, opts: CallOptions = {}): Promise<AgentWhoamiT> {
  const me = await fetchData(client, ENDPOINTS.agentWhoami, {}, opts);
  const left = me.authenticated ? me.agent.api_calls_remaining : undefined;
  if (typeof left === 'number' && Number.isFinite(left)) await client.ledger?.confirm({ remaining: left });
  return me;
}

/** GET /api/agent/capabilities: what the agent interface offers. */
export const agentCapabilities = /* @__PURE__ */ byClient(ENDPOINTS.agentCapabilities);

export const capabilitiesTable = /* @__PURE__ */ tableFor(ENDPOINTS.agentCapabilities);

/** The second view of the capabilities: the endpoints. */
export const agentEndpointsTable = (a: AgentCapabilitiesT): Table =>
  recordsTable(a.endpoints, ['method', 'path', 'auth']);

/** GET /api/agent/stats: global counts. */
export const agentStats = /* @__PURE__ */ byClient(ENDPOINTS.agentStats);

// ---------------------------------------------------------------- facilities for agents

/** GET /api/agent/facilities: facility search where `country` is a country name (a code also matches). */
export const agentFacilities = /* @__PURE__ */ byInput(ENDPOINTS.agentFacilities);

export const agentFacilitiesTable = /* @__PURE__ */ tableFor(ENDPOINTS.agentFacilities);

// ---------------------------------------------------------------- onboarding

/** GET /api/v1/onboard: guidance for browse, mcp, connector or rest clients (default: detected). */
export const onboard = (client: DchubClient, type?: string | null, opts: CallOptions = {}): Promise<OnboardT> =>
  fetchData(client, ENDPOINTS.onboard, { type }, opts);

// ---------------------------------------------------------------- receipts

/** GET /api/v1/receipts: published model-evaluation runs. */
export const receipts = /* @__PURE__ */ byClient(ENDPOINTS.receipts);

export const receiptsTable = /* @__PURE__ */ tableFor(ENDPOINTS.receipts);

/** GET /api/v1/receipts/{run_id}: one run with its full call record. */
export const receipt = (client: DchubClient, runId: number | string, opts: CallOptions = {}): Promise<ReceiptDetailT> =>
  fetchData(client, ENDPOINTS.receipt, { run_id: runId }, opts);

/** The API calls of one run, in order. */
export const receiptCallsTable = (r: ReceiptT): Table => answerTable(ENDPOINTS.receipt, r as ReceiptDetailT);
