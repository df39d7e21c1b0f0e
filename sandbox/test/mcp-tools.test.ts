import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpToolResult } from '@dchub/core';
import { allPipeline, dealsAsOf, newsAsOf } from '../src/domain/feeds.js';
import { startSandbox, type RunningSandbox } from '../src/server.js';

/**
 * Each MCP tool answers over the whole data set, and every documented parameter is honoured or
 * refused with an error naming it (issue 12, "The MCP tools search part of the data").
 */
type Obj = Record<string, any>;
let sb: RunningSandbox;
let client: Client;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'mcp-tools', now: '2026-11-21T12:00:00Z', keys: 'enterprise=mt-ent' });
  client = new Client({ name: 'mcp-tools-test', version: '0.0.1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${sb.url}/mcp`), {
      requestInit: { headers: { 'X-API-Key': 'mt-ent' } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

async function call(name: string, args: Obj = {}): Promise<{ isError: boolean; data: Obj }> {
  const raw = McpToolResult.parse(await client.callTool({ name, arguments: args }));
  return { isError: raw.isError === true, data: JSON.parse(raw.content[0].text!) };
}
async function refused(name: string, args: Obj, param: string) {
  const r = await call(name, args);
  expect(r.isError, JSON.stringify(r.data)).toBe(true);
  expect(r.data.param).toBe(param);
  expect(r.data.error).toMatch(new RegExp(`^${param}`));
  return r.data;
}
const now = () => sb.ctx.clock.nowMs();

describe('get_news: the whole archive', () => {
  it('counts every article, not the 200 newest', async () => {
    const { data } = await call('get_news', { limit: 5 });
    expect(data.total_matching).toBe(newsAsOf(sb.ctx, now()).length);
    expect(data.total_matching).toBeGreaterThan(1000);
  });

  it('date filters reach old records', async () => {
    const archive = newsAsOf(sb.ctx, now());
    const old = archive[archive.length - 50].published_at.slice(0, 10);
    const { data } = await call('get_news', { date_to: old, limit: 100 });
    const expected = archive.filter((a) => a.published_at.slice(0, 10) <= old);
    expect(data.total_matching).toBe(expected.length);
    expect(data.articles.length).toBeGreaterThan(0);
    expect(data.articles.every((a: Obj) => a.published_at.slice(0, 10) <= old)).toBe(true);
    await refused('get_news', { date_from: 'last week' }, 'date_from');
  });

  it('min_relevance filters on relevance_score (0–1 against 0–99)', async () => {
    const all = (await call('get_news', { limit: 1 })).data.total_matching;
    const { data } = await call('get_news', { min_relevance: 0.9, limit: 100 });
    expect(data.total_matching).toBeGreaterThan(0);
    expect(data.total_matching).toBeLessThan(all / 5);
    expect(data.articles.every((a: Obj) => a.relevance_score >= 90)).toBe(true);
  });

  it('category slugs map to the archive categories; an unknown category is refused', async () => {
    const { data } = await call('get_news', { category: 'deals', limit: 20 });
    expect(data.articles.length).toBeGreaterThan(0);
    expect(data.articles.every((a: Obj) => a.category === 'M&A')).toBe(true);
    const bad = await refused('get_news', { category: 'gossip' }, 'category');
    expect(bad.valid_categories).toContain('deals');
  });
});

describe('get_pipeline: every project and quarter dates', () => {
  it('counts every project, not the first 200', async () => {
    const { data } = await call('get_pipeline', { limit: 5 });
    expect(data.total_matching).toBe(allPipeline(sb.ctx).length);
    expect(data.total_matching).toBeGreaterThan(200);
  });

  it('expected_completion_before compares quarter ends (2027-Q3 ends 2027-09-30); TBD never qualifies', async () => {
    const { data } = await call('get_pipeline', { expected_completion_before: '2028-01-01', limit: 100 });
    const expected = allPipeline(sb.ctx).filter((p) => /^(2026|2027)-Q[1-4]$/.test(p.delivery));
    expect(data.total_matching).toBe(expected.length);
    expect(data.data.every((p: Obj) => /^(2026|2027)-Q/.test(p.delivery))).toBe(true);
    const byQuarter = await call('get_pipeline', { expected_completion_before: '2027-Q4', limit: 1 });
    expect(byQuarter.data.filters_applied.expected_completion_before).toBe('2027-12-31');
    await refused('get_pipeline', { expected_completion_before: 'soon' }, 'expected_completion_before');
  });

  it('status, operator, min_capacity_mw, country and offset are honoured', async () => {
    const all = allPipeline(sb.ctx);
    const op = all[0].company;
    const { data } = await call('get_pipeline', {
      status: 'construction',
      operator: op,
      min_capacity_mw: 50,
      limit: 100,
    });
    const expected = all.filter(
      (p) => p.status === 'construction' && p.company.toLowerCase().includes(op.toLowerCase()) && p.capacity >= 50,
    );
    expect(data.total_matching).toBe(expected.length);
    const page2 = await call('get_pipeline', { limit: 3, offset: 3 });
    expect(page2.data.data.map((p: Obj) => p.id)).toEqual(all.slice(3, 6).map((p) => p.id));
    const us = await call('get_pipeline', { country: 'us', limit: 1 });
    expect(us.data.total_matching).toBe(all.filter((p) => p.country === 'US').length);
    await refused('get_pipeline', { country: 'USA' }, 'country');
  });
});

describe('list_transactions: every deal', () => {
  it('date filters reach deals older than the 500 newest', async () => {
    const deals = dealsAsOf(sb.ctx, now());
    expect(deals.length).toBeGreaterThan(600);
    const cutoff = deals[600].date;
    const { data } = await call('list_transactions', { date_to: cutoff, limit: 5 });
    expect(data.total_matching).toBe(deals.filter((d) => d.date <= cutoff).length);
    expect(data.transactions.every((d: Obj) => d.date <= cutoff)).toBe(true);
  });

  it('values in USD, region and offset are honoured; bad dates and inverted ranges are refused', async () => {
    const { data } = await call('list_transactions', { min_value_usd: 1e9, region: 'eu', limit: 50 });
    expect(data.transactions.every((d: Obj) => d.value_usd >= 1e9 && d.region === 'Europe')).toBe(true);
    const deals = dealsAsOf(sb.ctx, now());
    const page = await call('list_transactions', { limit: 2, offset: 700 });
    expect(page.data.transactions.map((d: Obj) => d.id)).toEqual(deals.slice(700, 702).map((d) => d.id));
    await refused('list_transactions', { date_from: '2026/01/01' }, 'date_from');
    await refused('list_transactions', { min_value_usd: 5e9, max_value_usd: 1e9 }, 'min_value_usd');
  });
});

describe('get_grid_intelligence: every ISO', () => {
  it.each([
    [{ iso: 'NYISO' }, 'nyiso-isone'],
    [{ iso: 'ISO-NE' }, 'nyiso-isone'],
    [{ iso: 'isone' }, 'nyiso-isone'],
    [{ iso: 'SPP' }, 'miso-spp'],
    [{ market: 'new-york' }, 'nyiso-isone'],
    [{ region: 'ERCOT (Texas)' }, 'ercot'],
    [{ region_id: 'PJM' }, 'pjm'],
  ])('%j → %s', async (args, id) => {
    const { isError, data } = await call('get_grid_intelligence', args);
    expect(isError, JSON.stringify(data)).toBe(false);
    expect(data.region.id).toBe(id);
  });

  it('an unknown ISO or region is refused with the valid regions', async () => {
    const bad = await refused('get_grid_intelligence', { iso: 'ENTSOE' }, 'iso');
    expect(bad.valid_regions).toEqual(['ercot', 'pjm', 'miso-spp', 'caiso', 'nyiso-isone']);
    await refused('get_grid_intelligence', { region_id: 'nyiso' }, 'region_id');
  });
});

describe('analyze_site: candidate_id and include_*', () => {
  it('candidate_id resolves a refined-queue candidate (its point and capacity)', async () => {
    const res = await fetch(`${sb.url}/api/v1/interconnection-queue/refined?iso=PJM&geocoded_only=true&limit=1`, {
      headers: { 'X-API-Key': 'mt-ent' },
    });
    const survivor = (await res.json()).results[0];
    const { isError, data } = await call('analyze_site', { candidate_id: survivor.candidate_id });
    expect(isError, JSON.stringify(data)).toBe(false);
    expect(data.location).toMatchObject({ lat: survivor.lat, lon: survivor.lng });
    expect(data.capacity_requested_mw).toBe(survivor.capacity_mw);
    expect(data.resolved_from).toContain(survivor.queue_id);
    await refused('analyze_site', { candidate_id: 'cand_00000000000000000000' }, 'candidate_id');
  });

  it('grid, risk and fiber sections are there by default and left out when include_* is false', async () => {
    const full = (await call('analyze_site', { lat: 39.04, lon: -77.49 })).data;
    expect(full.grid.iso).toBe('PJM');
    expect(full.risk.water_stress_score).toBeTypeOf('number');
    expect(full.fiber).toBeDefined();
    const lean = (
      await call('analyze_site', {
        lat: 39.04,
        lon: -77.49,
        include_grid: false,
        include_risk: false,
        include_fiber: false,
      })
    ).data;
    expect(lean).not.toHaveProperty('grid');
    expect(lean).not.toHaveProperty('risk');
    expect(lean).not.toHaveProperty('fiber');
    expect(lean.excluded_sections).toEqual(['grid', 'risk', 'fiber']);
    expect(lean.overall_score).toBe(full.overall_score);
  });
});

describe('metric, period and data_type', () => {
  it('get_market_intel: metric narrows the answer, period the recent facilities; bad values are refused', async () => {
    const providers = (await call('get_market_intel', { market: 'dallas', metric: 'providers' })).data;
    expect(providers.metric).toBe('providers');
    expect(providers.top_providers.length).toBeGreaterThan(0);
    expect(providers).not.toHaveProperty('recent_facilities');
    const all = (await call('get_market_intel', { market: 'dallas', metric: 'recent', period: 'all' })).data;
    const recent = (await call('get_market_intel', { market: 'dallas', metric: 'recent', period: '1y' })).data;
    expect(recent.discovered_since).toMatch(/^2025-11-21T12:00:\d{2}Z$/);
    expect(recent.recent_facilities.every((f: Obj) => f.discovered_at >= recent.discovered_since)).toBe(true);
    expect(all.recent_facilities.length).toBeGreaterThanOrEqual(recent.recent_facilities.length);
    const dcpi = (await call('get_market_intel', { market: 'dallas', metric: 'dcpi' })).data;
    expect(['BUILD', 'CAUTION', 'AVOID']).toContain(dcpi.dcpi.verdict);
    await refused('get_market_intel', { market: 'dallas', metric: 'vibes' }, 'metric');
    await refused('get_market_intel', { market: 'dallas', period: 'forever' }, 'period');
    await refused('get_market_intel', { metric: 'capacity' }, 'metric');
  });

  it('get_grid_data: metric demand over period 24h gives 24 hourly points; bad values are refused', async () => {
    const { data } = await call('get_grid_data', { iso: 'NYISO', metric: 'demand', period: '24h' });
    expect(data).toMatchObject({ iso: 'NYISO', metric: 'demand', period: '24h' });
    expect(data.series).toHaveLength(24);
    expect(data.series.every((p: Obj) => p.demand_mw > 0)).toBe(true);
    expect(data).not.toHaveProperty('fuel_mix');
    const ren = (await call('get_grid_data', { iso: 'CAISO', metric: 'renewables' })).data;
    expect(ren.renewable_share_pct).toBeGreaterThan(0);
    await refused('get_grid_data', { metric: 'price' }, 'metric');
    await refused('get_grid_data', { period: 'week' }, 'period');
  });

  it('get_energy_prices: data_type picks retail, wholesale or gas; bad values are refused', async () => {
    const wholesale = (await call('get_energy_prices', { iso: 'ERCOT', data_type: 'wholesale' })).data;
    expect(wholesale.wholesale_price_usd_mwh).toBeTypeOf('number');
    expect(wholesale).not.toHaveProperty('natural_gas_usd_mmbtu');
    const gas = (await call('get_energy_prices', { data_type: 'gas' })).data;
    expect(gas.natural_gas_usd_mmbtu).toBeTypeOf('number');
    expect(gas).not.toHaveProperty('wholesale_price_usd_mwh');
    const retail = (await call('get_energy_prices', { state: 'TX', data_type: 'retail' })).data;
    expect(retail.retail.state).toBe('TX');
    await refused('get_energy_prices', { data_type: 'futures' }, 'data_type');
    await refused('get_energy_prices', { state: 'Atlantis' }, 'state');
  });
});

describe('ai_capacity_index: limit up to 500', () => {
  it('answers limits above 50 from the whole index', async () => {
    const { isError, data } = await call('ai_capacity_index', { limit: 500 });
    expect(isError, JSON.stringify(data).slice(0, 200)).toBe(false);
    expect(data.markets.length).toBe(data.total_markets);
    const seventy = (await call('ai_capacity_index', { limit: 70 })).data;
    expect(seventy.markets.length).toBe(Math.min(70, data.total_markets));
    expect(data.total_markets).toBeGreaterThan(50);
  });
});
