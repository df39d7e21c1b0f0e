import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOOL_NAMES, McpToolResult } from '@dchub/core';
import { startSandbox } from '../src/server.js';
import { type Obj, useMcpSandbox } from './support/mcp.js';
import { moveClock } from './support/sandbox.js';

/** The MCP server as a protocol: its identity and catalog, every tool answering, determinism, the transport's rules. */
const { sb, connect, call } = useMcpSandbox();

describe('MCP server: identity and catalog', () => {
  it('reports "DC Hub Intelligence" 2.1.11 over streamable HTTP with a session id', async () => {
    const client = await connect('p1');
    expect(client.getServerVersion()).toMatchObject({ name: 'DC Hub Intelligence', version: '2.1.11' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists exactly the 29 tools of spec §4.6, each with an input schema', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(29);
    expect(new Set(tools.map((t) => t.name))).toEqual(new Set(MCP_TOOL_NAMES));
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.description, t.name).toBeTruthy();
    }
    const schema = (n: string) =>
      tools.find((t) => t.name === n)!.inputSchema as { properties: Record<string, Obj>; required?: string[] };
    expect(schema('semantic_search').required).toEqual(['query']);
    expect(schema('semantic_search').properties).toHaveProperty('topK');
    expect(schema('get_market_dcpi_rank').required).toEqual(['market_slug']);
    expect(schema('compare_isos').required).toEqual(['isos']);
    expect(schema('find_alternatives').required).toEqual(['facility_id']);
    expect(schema('score_facility').properties.weighting.enum).toEqual([
      'balanced',
      'power_priority',
      'risk_priority',
      'expansion_priority',
    ]);
    expect(schema('rank_markets').properties.criteria.enum).toContain('best_overall');
    expect(schema('rank_markets').properties.region.enum).toEqual(['global', 'us', 'canada', 'eu', 'apac', 'americas']);
    expect(Object.keys(schema('hyperscaler_deals').properties)).toEqual(
      expect.arrayContaining(['buyer', 'min_value_usd', 'region']),
    );
    expect(schema('get_interconnection_queue').properties.iso.enum).toHaveLength(7);
  });
});

describe('every tool answers (enterprise key)', () => {
  const facility = () => sb.ctx.data.infra.facilities.find((f) => f.market === 'dallas')!.id;
  const SAMPLE_ARGS: Record<string, () => Obj> = {
    search_facilities: () => ({ query: 'ashburn', limit: 3 }),
    get_facility: () => ({ facility_id: facility() }),
    list_transactions: () => ({ limit: 3, region: 'americas' }),
    get_market_intel: () => ({ market: 'dallas' }),
    get_news: () => ({ limit: 3 }),
    analyze_site: () => ({ lat: 33.45, lon: -112.07, capacity_mw: 100 }),
    compare_sites: () => ({
      sites: [
        { lat: 39.04, lon: -77.49 },
        { lat: 32.78, lng: -96.8 },
      ],
    }),
    get_intelligence_index: () => ({}),
    get_pipeline: () => ({ limit: 3 }),
    get_grid_data: () => ({ iso: 'PJM' }),
    get_grid_intelligence: () => ({ iso: 'ERCOT' }),
    get_energy_prices: () => ({ state: 'VA' }),
    get_renewable_energy: () => ({ state: 'TX', energy_type: 'solar' }),
    get_tax_incentives: () => ({ state: 'VA' }),
    get_water_risk: () => ({ lat: 33.45, lon: -112.07 }),
    get_infrastructure: () => ({ lat: 39.04, lon: -77.49, layer: 'substations', limit: 3 }),
    get_fiber_intel: () => ({ market: 'northern-virginia', route_type: 'longhaul' }),
    get_backup_status: () => ({}),
    get_agent_registry: () => ({}),
    semantic_search: () => ({ query: 'hyperscale campus in Texas', topK: 3 }),
    get_dchub_recommendation: () => ({ context: 'site-selection for a 100 MW campus' }),
    get_market_dcpi_rank: () => ({ market_slug: 'dallas' }),
    compare_isos: () => ({ isos: 'PJM,ERCOT,CAISO' }),
    get_interconnection_queue: () => ({ iso: 'MISO' }),
    rank_markets: () => ({ criteria: 'cheapest_power', region: 'global', limit: 5 }),
    find_alternatives: () => ({ facility_id: facility(), radius_km: 100 }),
    score_facility: () => ({ facility_id: facility() }),
    ai_capacity_index: () => ({ horizon: 60, limit: 3 }),
    hyperscaler_deals: () => ({ min_value_usd: 2e9, region: 'americas' }),
  };

  it('has a sample for each of the 29 tools', () => {
    expect(Object.keys(SAMPLE_ARGS).sort()).toEqual([...MCP_TOOL_NAMES].sort());
  });

  it.each([...MCP_TOOL_NAMES])('%s', async (name) => {
    const client = await connect('e1');
    const r = await call(client, name, SAMPLE_ARGS[name]());
    expect(r.isError, JSON.stringify(r.data).slice(0, 300)).toBe(false);
  });

  it('domain rules: water risk categories, tax programs, hyperscaler window', async () => {
    const client = await connect('e1');
    const water = await call(client, 'get_water_risk', { state: 'AZ' });
    expect(water.data.drought_category).toMatch(/^D[0-4]$/);
    expect(water.data.water_stress_score).toBeGreaterThan(60);
    const tax = await call(client, 'get_tax_incentives', { state: 'Virginia' });
    for (const p of tax.data.programs as Obj[])
      expect([
        'sales-tax-exemption',
        'property-tax-abatement',
        'income-tax-credit',
        'electricity-tax-discount',
      ]).toContain(p.type);
    const deals = await call(client, 'hyperscaler_deals', { min_value_usd: 2e9, region: 'americas' });
    expect(deals.data.since).toBe('2026-05-25');
    expect((deals.data.deals as Obj[]).length).toBeGreaterThan(0);
    for (const d of deals.data.deals as Obj[]) {
      expect(d.value_usd as number).toBeGreaterThanOrEqual(2e9);
      expect(String(d.date) >= '2026-05-25').toBe(true);
      expect(String(d.region)).toMatch(/America/);
    }
    const noState = await call(client, 'get_tax_incentives', {});
    expect(noState.isError).toBe(true);
    const region = await call(client, 'get_grid_intelligence', {});
    expect(region).toMatchObject({ isError: true, data: { error: 'region required' } });
  });
});

describe('determinism', () => {
  it('the same seed and clock give byte-identical tool answers', async () => {
    const other = await startSandbox({ port: 0, seed: 'mcp', now: '2026-11-21T12:00:00Z', keys: 'enterprise=e1' });
    try {
      const texts = async (url: string) => {
        const client = new Client({ name: 'det', version: '1' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { 'X-API-Key': 'e1' } } }),
        );
        const out: string[] = [];
        for (const [name, args] of [
          ['rank_markets', { criteria: 'ai_ready', region: 'global' }],
          ['compare_isos', { isos: 'PJM,MISO' }],
          ['get_intelligence_index', {}],
          ['list_transactions', { limit: 5 }],
          ['score_facility', { facility_id: sb.ctx.data.infra.facilities[0].id }],
        ] as const) {
          const r = McpToolResult.parse(await client.callTool({ name, arguments: args }));
          out.push(r.content[0].text!);
        }
        await client.close();
        return out;
      };
      await moveClock(sb, { set: '2026-11-21T12:00:00Z' });
      expect(await texts(sb.url)).toEqual(await texts(other.url));
    } finally {
      await other.close();
    }
  });
});

describe('MCP transport rules', () => {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

  it('an unknown key is refused with HTTP 401 and auth_instructions', async () => {
    const res = await fetch(`${sb.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'X-API-Key': 'nope' },
      body: JSON.stringify(init),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as Obj;
    expect(body.error).toBe('invalid_api_key');
    expect(body.auth_instructions).toMatch(/\/auth\.md$/);
  });

  it('no session → 400; unknown session → 404; DELETE closes a session', async () => {
    const noSession = await fetch(`${sb.url}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    expect(((await noSession.json()) as { error: { message: string } }).error.message).toMatch(/No session/);
    const unknown = await fetch(`${sb.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'Mcp-Session-Id': 'nope' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    const started = await fetch(`${sb.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(started.status).toBe(200);
    const sid = started.headers.get('mcp-session-id')!;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(started.headers.get('access-control-expose-headers')).toMatch(/Mcp-Session-Id/i);
    const del = await fetch(`${sb.url}/mcp`, { method: 'DELETE', headers: { 'Mcp-Session-Id': sid } });
    expect(del.status).toBe(200);
    const after = await fetch(`${sb.url}/mcp`, { method: 'DELETE', headers: { 'Mcp-Session-Id': sid } });
    expect(after.status).toBe(404);
  });
});
