import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOOL_NAMES, McpProWall, McpToolResult, QueueResult } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../src/server.js';

let sb: RunningSandbox;
const open: Client[] = [];

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'mcp',
    now: '2026-11-21T12:00:00Z',
    keys: 'free=f1,developer=d1,pro=p1,enterprise=e1',
    controls: true,
  });
});
afterAll(() => sb?.close());
beforeEach(async () => {
  await fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' });
});
afterEach(async () => {
  while (open.length)
    await open
      .pop()!
      .close()
      .catch(() => undefined);
});

async function connect(key?: string, bearer = false): Promise<Client> {
  const headers: Record<string, string> = key
    ? bearer
      ? { Authorization: `Bearer ${key}` }
      : { 'X-API-Key': key }
    : {};
  const client = new Client({ name: 'dchub-sandbox-test', version: '0.0.1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sb.url}/mcp`), { requestInit: { headers } }));
  open.push(client);
  return client;
}

type Obj = Record<string, unknown>;
async function call(client: Client, name: string, args: Obj = {}): Promise<{ isError: boolean; data: Obj }> {
  const raw = McpToolResult.parse(await client.callTool({ name, arguments: args }));
  const text = raw.content[0]?.text ?? '';
  const data = JSON.parse(text) as Obj;
  // The text content and structuredContent carry the same JSON.
  expect(raw.structuredContent).toEqual(data);
  return { isError: raw.isError === true, data };
}
const rest = async (path: string, key = 'e1') => {
  const res = await fetch(`${sb.url}${path}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Obj };
};

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

describe('MCP tools answer from the same data as REST', () => {
  it('get_market_dcpi_rank = GET /api/v1/dcpi/scores/{slug}', async () => {
    const client = await connect('e1');
    const r = await rest('/api/v1/dcpi/scores/northern-virginia');
    const { isError, data } = await call(client, 'get_market_dcpi_rank', { market_slug: 'northern-virginia' });
    expect(isError).toBe(false);
    if (r.status === 404 && String(r.body.error).startsWith('not_found: no endpoint')) {
      // The REST route is not in this build: the tool computed the same DCPI record from the data set.
      expect(data).toMatchObject({ market_slug: 'northern-virginia' });
      return;
    }
    expect(r.status).toBe(200);
    expect(data).toEqual(r.body);
    const missing = await call(client, 'get_market_dcpi_rank', { market_slug: 'atlantis' });
    expect(missing.isError).toBe(true);
    expect(missing.data.error).toMatch(/not found/i);
  });

  it('analyze_site = GET /api/site-score', async () => {
    const client = await connect('p1');
    const r = await rest('/api/site-score?lat=39.04&lon=-77.49&capacity_mw=100', 'p1');
    const { isError, data } = await call(client, 'analyze_site', { lat: 39.04, lon: -77.49, capacity_mw: 100 });
    expect(isError).toBe(false);
    for (const k of [
      'overall_score',
      'interpretation',
      'location',
      'fiber',
      'nearby',
      'capacity_context',
      'capacity_requested_mw',
    ])
      expect(data[k], k).toEqual(r.body[k]);
    const byName = await call(client, 'analyze_site', { location: 'northern-virginia' });
    expect(byName.data.resolved_from).toMatch(/northern-virginia/);
  });

  it('get_interconnection_queue(iso) = the refined queue of that ISO', async () => {
    const client = await connect('e1');
    const r = await rest('/api/v1/interconnection-queue/refined?iso=ERCOT&limit=50');
    const q = QueueResult.parse(r.body);
    const { data } = await call(client, 'get_interconnection_queue', { iso: 'ERCOT' });
    const ids = (rows: unknown) => (rows as Array<{ queue_id: string }>).map((p) => p.queue_id);
    expect(ids(data.projects)).toEqual(ids(q.results));
    expect(data.count_total_matching).toBe(q.count_total_matching);
    const all = await call(client, 'get_interconnection_queue');
    expect(Object.keys(all.data.projects as Obj)).toEqual(['PJM', 'ERCOT', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISO-NE']);
  });

  it('list_transactions and search_facilities read the REST data', async () => {
    const client = await connect('e1');
    const deals = await call(client, 'list_transactions', { limit: 5 });
    const r = await rest('/api/v1/transactions?limit=5');
    if (r.status === 200) {
      const ids = (rows: unknown) => (rows as Array<{ id: number }>).map((d) => d.id);
      expect(ids(deals.data.transactions)).toEqual(ids(r.body.transactions));
    }
    const fac = await call(client, 'search_facilities', { query: 'dallas', limit: 3 });
    const expected = sb.ctx.data.infra.facilities.filter((f) =>
      [f.name, f.operator, f.city, f.market ?? '', f.state].some((s) => s.toLowerCase().includes('dallas')),
    );
    expect(fac.data.total).toBe(expected.length);
    expect((fac.data.facilities as Obj[]).map((f) => f.id)).toEqual(expected.slice(0, 3).map((f) => f.id));
  });

  it('facility tools: score_facility (7 dimensions) and find_alternatives', async () => {
    const client = await connect('f1');
    const id = sb.ctx.data.infra.facilities.find((f) => f.market === 'dallas')!.id;
    const s = await call(client, 'score_facility', { facility_id: id, weighting: 'power_priority' });
    expect(s.isError).toBe(false);
    expect(Object.keys(s.data.dimensions as Obj).sort()).toEqual([
      'climate_risk',
      'expansion',
      'fiber',
      'power',
      'talent_pool',
      'tax_environment',
      'water',
    ]);
    expect(s.data.composite_score).toBeGreaterThanOrEqual(0);
    expect(s.data.composite_score).toBeLessThanOrEqual(100);
    const a = await call(client, 'find_alternatives', { facility_id: id, limit: 3 });
    const rows = a.data.results as Obj[];
    expect(rows.length).toBeLessThanOrEqual(3);
    for (const row of rows)
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining(['similarity_score', 'match_reasons', 'key_differences']),
      );
    const bad = await call(client, 'score_facility', { facility_id: 999_999_999 });
    expect(bad.isError).toBe(true);
  });

  it('arguments that break the input schema answer JSON-RPC -32602 in one line naming the parameter', async () => {
    const client = await connect('f1');
    const rejected = async (name: string, args: Obj) => {
      const err = await client.callTool({ name, arguments: args }).then(
        () => undefined,
        (e: unknown) => e as { code?: number; message: string; data?: Obj },
      );
      expect(err, `${name} ${JSON.stringify(args)} was accepted`).toBeDefined();
      return err!;
    };
    const noQuery = await rejected('semantic_search', {});
    expect(noQuery).toMatchObject({ code: -32602, data: { param: 'query', tool: 'semantic_search' } });
    expect(noQuery.message).toMatch(/^MCP error -32602: query: /);
    const badEnum = await rejected('rank_markets', { criteria: 'cheapest' });
    expect(badEnum).toMatchObject({ code: -32602, data: { param: 'criteria' } });
    const wrongType = await rejected('get_news', { limit: 'lots' });
    expect(wrongType).toMatchObject({ code: -32602, data: { param: 'limit' } });
    for (const e of [noQuery, badEnum, wrongType]) expect(e.message).not.toContain('\n');
  });

  it('a value the schema allows but the data refuses stays a JSON tool error naming it', async () => {
    const client = await connect('f1');
    const few = await call(client, 'compare_isos', { isos: 'PJM' });
    expect(few.isError).toBe(true);
    expect(few.data.supported_isos).toEqual(['PJM', 'ERCOT', 'CAISO', 'MISO', 'SPP', 'NYISO', 'ISONE']);
    const ok = await call(client, 'compare_isos', { isos: 'PJM,ERCOT,ISO-NE' });
    expect(ok.data.isos).toEqual(['PJM', 'ERCOT', 'ISONE']);
  });

  it('an argument error spends nothing: the daily allowance and the Pro wall come after it', async () => {
    const client = await connect('f1');
    const used = () => sb.ctx.counters.used(sb.ctx.clock.nowMs(), 'mcp:key:f1');
    await call(client, 'get_market_dcpi_rank', { market_slug: 'dallas' });
    const before = used();
    expect(before).toBeGreaterThan(0);
    const err = await client
      .callTool({ name: 'analyze_site', arguments: { lat: 'north' } })
      .catch((e: { code?: number; data?: Obj }) => e);
    expect(err).toMatchObject({ code: -32602, data: { param: 'lat' } });
    expect(used()).toBe(before);
    const walled = await call(client, 'analyze_site', { lat: 39, lon: -77 });
    expect(walled.data.error).toBe('pro_required');
  });

  it("internal REST reads do not spend the caller's REST allowance", async () => {
    const client = await connect('f1');
    for (let i = 0; i < 12; i++) expect((await call(client, 'list_transactions', { limit: 1 })).isError).toBe(false);
    const r = await rest('/api/v1/transactions?limit=1', 'f1');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('9');
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

describe('MCP tiers', () => {
  it('keyless: 10 tool calls a day, then a daily_limit_reached tool error', async () => {
    const client = await connect();
    for (let i = 0; i < 10; i++)
      expect((await call(client, 'get_water_risk', { state: 'VA' })).isError, `call ${i + 1}`).toBe(false);
    const over = await call(client, 'get_water_risk', { state: 'VA' });
    expect(over.isError).toBe(true);
    expect(over.data).toMatchObject({ error: 'daily_limit_reached', tier: 'anonymous', limit: '10/day' });
    // tools/list is not a call; a key opens a fresh allowance.
    expect((await client.listTools()).tools).toHaveLength(29);
    const keyed = await connect('f1');
    expect((await call(keyed, 'get_water_risk', { state: 'VA' })).isError).toBe(false);
  });

  it('keyless: at most 2 results per list answer, with how many are withheld', async () => {
    const client = await connect();
    const anon = await call(client, 'rank_markets', { limit: 10 });
    expect(anon.data.results).toHaveLength(2);
    expect(anon.data).toMatchObject({
      _gated: true,
      _preview_only: true,
      preview_is_partial: true,
      _results_field: 'results',
      _results_withheld: 8,
      _total_available: 10,
      _hidden_count: 8,
    });
    const keyed = await call(await connect('f1'), 'rank_markets', { limit: 10 });
    expect(keyed.data.results).toHaveLength(10);
    expect(keyed.data).not.toHaveProperty('_gated');
    expect((anon.data.results as Obj[])[0]).toEqual((keyed.data.results as Obj[])[0]);
    const tx = await call(client, 'list_transactions', { limit: 5 });
    expect(tx.data.transactions).toHaveLength(2);
    expect(tx.data.data).toHaveLength(2);
  });

  it('Pro-only tools are a hard wall below Pro', async () => {
    const dev = await connect('d1');
    for (const [name, args] of [
      ['analyze_site', { lat: 39, lon: -77.5 }],
      ['compare_sites', { locations: '39,-77.5;32.8,-96.8' }],
      ['get_grid_intelligence', { region_id: 'ercot' }],
      ['get_fiber_intel', { market: 'dallas' }],
    ] as const) {
      const r = await call(dev, name, args);
      expect(r.isError, name).toBe(true);
      expect(McpProWall.parse(r.data)).toMatchObject({
        error: 'pro_required',
        tool: name,
        _gated: true,
        required_plan: 'pro',
        current_plan: 'developer',
      });
    }
    const pro = await connect('p1');
    const cmp = await call(pro, 'compare_sites', { locations: '39,-77.5;32.8,-96.8' });
    expect(cmp.isError).toBe(false);
    expect((cmp.data.sites as Obj[]).length).toBe(2);
    expect((await call(pro, 'get_fiber_intel', { market: 'dallas' })).isError).toBe(false);
  });

  it('gated tools give keyless callers a preview (spec §5.3 markers)', async () => {
    const anon = await call(await connect(), 'get_infrastructure', { lat: 39.0, lon: -77.5 });
    expect(anon.isError).toBe(false);
    expect(anon.data).toMatchObject({ _gated: true, _preview_only: true, _required_tier: 'IDENTIFIED' });
    expect(anon.data).not.toHaveProperty('substations');
    expect((anon.data.summary as Obj).substations).toBeGreaterThan(0);
    const full = await call(await connect('f1'), 'get_infrastructure', { lat: 39.0, lon: -77.5 });
    expect(full.data).not.toHaveProperty('_gated');
    expect(Array.isArray(full.data.substations)).toBe(true);
    const idx = await call(await connect(), 'get_intelligence_index');
    expect(idx.data).toMatchObject({ _gated: true });
    expect(idx.data).not.toHaveProperty('components');
  });

  it('get_facility: the keyed REST record with a key, the inventory row without', async () => {
    const id = sb.ctx.data.infra.facilities[5].id;
    const keyed = await call(await connect('f1'), 'get_facility', { facility_id: id });
    const r = await rest(`/api/v1/facilities/detail/${id}`, 'f1');
    expect(r.status).toBe(200);
    expect(keyed.data.facility).toEqual(r.body.data ?? r.body.facility ?? r.body);
    const anon = await call(await connect(), 'get_facility', { facility_id: id });
    expect(anon.data.detail_requires_key).toBe(true);
    expect(anon.data.facility).toMatchObject({ id, name: sb.ctx.data.infra.facilities[5].name });
    expect(Object.keys(anon.data.facility as Obj).length).toBeLessThan(Object.keys(keyed.data.facility as Obj).length);
  });

  it('a Bearer key works like X-API-Key', async () => {
    const r = await call(await connect('p1', true), 'analyze_site', { lat: 39, lon: -77.5 });
    expect(r.isError).toBe(false);
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
      await fetch(`${sb.url}/_sandbox/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ set: '2026-11-21T12:00:00Z' }),
      });
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
