import { z } from 'zod';
import { pathRequest, resource } from '../resource.js';
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
} from '../schemas/agent.js';
import { idParam } from '../schemas/params.js';
import { positiveIdArg } from './segments.js';

export const AGENT_FACILITY_COLUMNS = [
  'id', 'name', 'provider', 'operator', 'city', 'state', 'country', 'country_name', 'market', 'power_mw', 'status',
  'latitude', 'longitude',
] as const; // prettier-ignore

export const RECEIPT_COLUMNS = [
  'run_id', 'model_id', 'platform', 'platform_label', 'status', 'evaluated_at', 'published_at', 'model_replies',
  'api_call_count', 'http_5xx_seen', 'verdict_vs_previous', 'verdict_sha256', 'harness_notes',
] as const; // prettier-ignore

export const RECEIPT_CALL_COLUMNS = [
  'n', 'method', 'url', 'executed', 'http_status', 'response_bytes', 'response_sha256', 'response_truncated_by_harness',
  'response_excerpt',
] as const; // prettier-ignore

export const AGENT_ENDPOINTS = {
  health: resource({ method: 'get', path: '/api/health' }),
  /** What the agent interface offers (its endpoints are a second view: agentEndpointsTable). */
  agentCapabilities: resource(
    { method: 'get', path: '/api/agent/capabilities', response: AgentCapabilities },
    {
      table: {
        rows: (a) =>
          a.capabilities.map((c) => ({ ...c, params: Array.isArray(c.params) ? c.params.join(', ') : c.params })),
        columns: ['name', 'endpoint', 'description', 'params'],
        open: true,
      },
    },
  ),
  /** The caller's profile and calls left today; asked fresh unless the caller asks for the cache. */
  agentWhoami: resource({ method: 'get', path: '/api/agent/whoami', response: AgentWhoami, cacheable: false }),
  /** Facility search where `country` is a country name (a code also matches). */
  agentFacilities: resource(
    { method: 'get', path: '/api/agent/facilities', query: AgentFacilitiesQuery, response: AgentFacilities },
    { table: { rows: (a) => a.facilities, columns: AGENT_FACILITY_COLUMNS, open: true } },
  ),
  /** Global counts. */
  agentStats: resource({ method: 'get', path: '/api/agent/stats', response: AgentStats }),
  /** Guidance for browse, mcp, connector or rest clients (default: detected). */
  onboard: resource({ method: 'get', path: '/api/v1/onboard', query: OnboardQuery, response: Onboard }),
  /** Published model-evaluation runs. */
  receipts: resource(
    { method: 'get', path: '/api/v1/receipts', response: ReceiptList },
    {
      table: {
        rows: (l) => l.receipts.map((r) => ({ ...r, api_call_count: r.api_calls.length })),
        columns: RECEIPT_COLUMNS,
      },
      asOf: (l) => l.as_of,
      note: (l) => `${l.counts.published_runs} published runs`,
    },
  ),
  /** One run with its full call record: its API calls, in order. */
  receipt: resource(
    {
      method: 'get',
      path: '/api/v1/receipts/:run_id',
      params: z.object({ run_id: idParam('Run id (a positive whole number)') }),
      response: ReceiptDetail,
    },
    {
      request: pathRequest(positiveIdArg),
      table: { rows: (r) => r.api_calls, columns: RECEIPT_CALL_COLUMNS },
      asOf: (r) => r.published_at,
    },
  ),
  /** Issues a free key (idempotent per client name and caller address); never cached. */
  keyClaim: resource({ method: 'post', path: '/api/v1/keys/claim', body: KeyClaimRequest, response: KeyClaimAnswer }),
};
