import type http from 'node:http';
import { loopback } from './loopback.js';

/**
 * A loopback stand-in for the explanatory fields of the real service that the sandbox cannot
 * produce (reference notes; generated values): a DCPI answer resolved from an alias whose forecast
 * is unavailable, a ranking that left candidates out (`excluded_incomplete`, `candidate_contract`,
 * `coverage_note`), fallback electricity prices, and MCP sessions refused after the handshake — a
 * 401 at tools/list, a 401 or 403 at tools/call, a JSON-RPC -32001 — or answering the zero-row
 * time-to-power cut as a tool error with `_error_mitigation`. Each scenario has its own base URL,
 * `${url}/s/<scenario>`. With `cors`, it answers a browser (the Excel harness) too.
 */
export type McpScenario = 'list-401' | 'call-401' | 'call-403' | 'call-rpc' | 'call-key-error' | 'ttp-cut';

export const STANDIN = {
  forecastNote: 'Need ≥3 daily DCPI samples in last 30 days to project.',
  objectiveReason: 'water objectives are unavailable until real WRI rows exist',
  coverageNote: 'water_stress could not be validated for this batch; the ranking uses the other objectives.',
  readFailedNote: 'the candidate store did not answer for one id; rank again later.',
  keyRefused: 'Invalid or inactive API key',
  keyUrl: 'https://dchub.cloud/dashboard.html#api-keys',
  planWall: 'A key on the Pro plan or above opens this tool over MCP.',
  rpcRefused: 'Unauthorized: the session key was revoked',
  ttpHint:
    'No queued capacity matches this time-to-power constraint for the selected ISO(s). Expand max_ttp_months to at least 50.5 to return rows.',
  priceSource: 'EIA 2024 Historical Data',
} as const;

const dcpiAlias = {
  id: 7,
  market_slug: 'dallas',
  market_name: 'Dallas',
  state: 'TX',
  iso: 'ERCOT',
  latitude: 32.78,
  longitude: -96.8,
  constraint_score: 41.2,
  excess_power_score: 58.4,
  time_to_power_months: 32.6,
  verdict: 'CAUTION',
  computed_at: '2026-11-21T06:00:00+00:00',
  composite_score: 51.3,
  top_risks_json: ['synthetic risk'],
  top_opportunities_json: ['synthetic opportunity'],
  _requested_slug: 'dfw',
  _canonical_slug: 'dallas',
  forecast: { available: false, reason: 'insufficient_history', samples_in_30d: 2, note: STANDIN.forecastNote },
};

const ranked = {
  _entity: 'ranked_sites',
  ok: true,
  scoring_mode: 'relative',
  objective_status: [
    { objective: 'score', status: 'validated', basis: 'relative_in_set' },
    { objective: 'water_stress', status: 'unavailable', reason: STANDIN.objectiveReason },
  ],
  constraint_coverage: { score: 'validated' },
  require_complete: true,
  excluded_incomplete: [{ id: 'site-c', missing_objectives: ['score'] }],
  candidate_contract: {
    search_version: 'refined-queue/2026-07-11',
    analysis_version: 'rank-sites/2026-07-11',
    expired_candidates: ['cand_00000000000000000001'],
    unknown_candidates: ['cand_ffffffffffffffffffff'],
    read_failed_candidates: ['cand_00000000000000000002'],
    read_failed_note: STANDIN.readFailedNote,
  },
  coverage_note: STANDIN.coverageNote,
  count_ranked: 2,
  count_returned: 2,
  dropped_by_constraints: 1,
  results: [
    { id: 'site-a', score: 80, objective_score: 100, normalized: { score: 100 }, rank: 1 },
    { id: 'site-b', score: 60, objective_score: 0, normalized: { score: 0 }, rank: 2 },
  ],
  normalization_basis: { score: { min: 60, max: 80, direction: 'maximize' } },
  _source: 'DC Hub — dchub.cloud',
  _cite: 'Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud"',
};

const fallbackPrices = {
  state: 'TX',
  industrial_price_cents_kwh: 7.23,
  industrial_price_dollars_kwh: 0.0723,
  commercial_price_cents_kwh: 8.31,
  source: STANDIN.priceSource,
  data_quality: 'fallback',
};

/**
 * The refined queue's zero-row answer to a time-to-power cut, as the MCP layer sends it: a tool error (notes §2.21).
 */
export const ttpCutAnswer = {
  _entity: 'queue_results',
  ok: true,
  count_returned: 0,
  count_total_matching: 0,
  filters_applied: { iso: 'PJM', max_ttp_months: 30 },
  isos_excluded_by_ttp: { PJM: 50.5 },
  min_satisfiable_max_ttp_months: 50.5,
  results: [],
  _error_mitigation: {
    error_version: 1,
    error_code: 'zero_row_ttp_cut',
    severity: 'parameter_adjustment',
    deterministic_hint: STANDIN.ttpHint,
    suggested_params: { max_ttp_months: 50.5 },
  },
};

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, X-API-Key',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id',
};

/** The tools the stand-in lists (their own input schemas stay core's). */
const TOOLS = ['get_news', 'get_interconnection_queue'];

const keyRefused = {
  success: false,
  error: 'invalid_api_key',
  message: STANDIN.keyRefused,
  get_key_url: STANDIN.keyUrl,
};
const planWall = {
  success: false,
  error: 'plan_upgrade_required',
  message: STANDIN.planWall,
  required_plan: 'pro',
  current_plan: 'free',
  upgrade_url: 'https://dchub.cloud/pricing',
};

export async function startExplainStandin(opts: { cors?: boolean } = {}) {
  const cors = opts.cors ? CORS : {};
  const send = (res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      ...cors,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const rpc = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id, result });
  const text = (payload: unknown, isError = false) => ({
    content: [{ type: 'text', text: JSON.stringify(payload) }],
    ...(isError ? { isError: true } : {}),
  });

  const mcp = (scenario: McpScenario, req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    if (req.method === 'GET')
      return send(
        res,
        405,
        { error: 'Streamable HTTP subscription is not supported. Use POST /mcp.' },
        { Allow: 'POST, DELETE, OPTIONS' },
      );
    if (req.method === 'DELETE') return send(res, 200, { ok: true });
    const m = JSON.parse(body || '{}') as { id?: unknown; method?: string; params?: { protocolVersion?: string } };
    if (m.id === undefined) return send(res, 202);
    const session = { 'Mcp-Session-Id': 'standin-session' };
    switch (m.method) {
      case 'initialize':
        return send(
          res,
          200,
          rpc(m.id, {
            protocolVersion: m.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'DC Hub Intelligence (stand-in)', version: '2.12.0' },
          }),
          session,
        );
      case 'tools/list':
        if (scenario === 'list-401') return send(res, 401, keyRefused);
        return send(
          res,
          200,
          rpc(m.id, {
            tools: TOOLS.map((name) => ({
              name,
              inputSchema: { type: 'object', properties: { iso: { type: 'string' }, limit: { type: 'integer' } } },
            })),
          }),
          session,
        );
      case 'tools/call':
        if (scenario === 'call-401') return send(res, 401, keyRefused);
        if (scenario === 'call-403') return send(res, 403, planWall);
        if (scenario === 'call-rpc')
          return send(
            res,
            200,
            { jsonrpc: '2.0', id: m.id, error: { code: -32001, message: STANDIN.rpcRefused } },
            session,
          );
        if (scenario === 'call-key-error') return send(res, 200, rpc(m.id, text(keyRefused, true)), session);
        return send(res, 200, rpc(m.id, text(ttpCutAnswer, true)), session);
      default:
        return send(
          res,
          200,
          { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } },
          session,
        );
    }
  };

  const server = await loopback((req, res, body) => {
    if (req.method === 'OPTIONS') return send(res, 204);
    const m = /^\/s\/([a-z0-9-]+)(\/[^?]*)/.exec(req.url ?? '');
    const scenario = (m?.[1] ?? '') as McpScenario;
    const path = m?.[2] ?? '';
    if (path === '/mcp') return mcp(scenario, req, res, body);
    if (path === '/api/v1/dcpi/scores/dfw') return send(res, 200, dcpiAlias);
    if (path === '/api/v1/rank-sites' && req.method === 'POST') return send(res, 200, ranked);
    if (path === '/api/energy/prices/TX') return send(res, 200, fallbackPrices);
    return send(res, 404, { error: `the stand-in has no ${req.method} ${path}` });
  });
  return {
    url: server.url,
    base: (scenario: string) => `${server.url}/s/${scenario}`,
    seen: server.seen,
    close: server.close,
  };
}
export type ExplainStandin = Awaited<ReturnType<typeof startExplainStandin>>;
