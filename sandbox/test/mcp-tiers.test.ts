import { describe, expect, it } from 'vitest';
import { McpProWall, QueueResult } from '@dchub/core';
import { type Obj, useMcpSandbox } from './support/mcp.js';

/** The MCP tools against REST (same data, argument errors, allowances) and by tier (limits, previews, the Pro wall). */
const { sb, connect, call, rest } = useMcpSandbox();

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
