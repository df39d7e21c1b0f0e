import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import * as core from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('feeds, energy, agent (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const ENT = 'e1';
  const DEV = 'd1';
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'x',
      now: '2026-11-21T12:00:00Z',
      keys: `developer=${DEV},enterprise=${ENT}`,
      controls: true,
    });
  });
  afterAll(() => sb?.close());

  const client = (apiKey: string | undefined = ENT, tier = 'enterprise') =>
    new core.DchubClient({ baseUrl: sb.url, apiKey, tier, retries: 0 });
  const keyless = () => new core.DchubClient({ baseUrl: sb.url, retries: 0 });
  /** The sandbox's own answer to the same request (plain fetch, same key). */
  const raw = async (p: string, key: string | null = ENT): Promise<any> =>
    (await fetch(sb.url + p, { headers: key ? { 'X-API-Key': key } : {} })).json();
  const rawPost = async (p: string, body: unknown, key: string | null = ENT): Promise<any> =>
    (
      await fetch(sb.url + p, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(key ? { 'X-API-Key': key } : {}) },
      })
    ).json();

  /** Rows as long as the header, and the named columns holding numbers (or '' for a missing value). */
  function expectShape(t: core.Table, rows: number, numeric: string[] = [], opts: { allowBlank?: boolean } = {}) {
    expect(t.rows).toHaveLength(rows);
    expect(new Set(t.columns).size).toBe(t.columns.length);
    for (const r of t.rows) {
      expect(r).toHaveLength(t.columns.length);
      for (const c of numeric) {
        const i = t.columns.indexOf(c);
        expect(i, `column ${c}`).toBeGreaterThanOrEqual(0);
        if (opts.allowBlank && r[i] === '') continue;
        expect(typeof r[i], `${c} = ${JSON.stringify(r[i])}`).toBe('number');
      }
    }
  }

  const fetchMetaOf = (d: unknown) => {
    const m = core.fetchMeta(d);
    expect(m).toBeDefined();
    return m!;
  };

  /** Expects a ValidationError naming `param`. */
  async function rejectsParam(p: Promise<unknown>, param: string) {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(core.ValidationError);
    expect((err as core.ValidationError).param).toBe(param);
  }

  describe('facilities', () => {
    it('search matches the sandbox, and the table keeps numbers', async () => {
      const c = client();
      const s = await core.searchFacilities(c, { q: 'dallas', country: 'us', limit: 7 });
      expect(s).toEqual(await raw('/api/v1/facilities?q=dallas&country=US&limit=7'));
      expect(s.data).toHaveLength(7);
      const t = core.facilitiesTable(s);
      expect(t.columns.slice(0, 9)).toEqual([
        'id',
        'name',
        'provider',
        'operator',
        'city',
        'state',
        'country',
        'market',
        'power_mw',
      ]);
      expectShape(t, 7, ['id', 'power_mw', 'latitude', 'longitude']);
      expect(t.rows.map((r) => r[0])).toEqual(s.data.map((f) => f.id));
      expect(t.citation).toMatch(/DC Hub/);
      expect(fetchMetaOf(s).preview).toBe(false);
    });

    it('detail of one facility as field/value rows', async () => {
      const c = client();
      const id = (await core.searchFacilities(c, { q: 'dallas', limit: 1 })).data[0].id;
      const d = await core.facilityDetail(c, String(id));
      expect(d).toEqual(await raw(`/api/v1/facilities/detail/${id}`));
      expect(d.data.id).toBe(id);
      const t = core.facilityTable(d);
      expect(t.columns).toEqual(['field', 'value']);
      expect(t.rows).toContainEqual(['id', id]);
      expect(t.rows).toContainEqual(['capacity.it_load_mw', d.data.capacity.it_load_mw]);
      expect(typeof d.data.capacity.it_load_mw).toBe('number');
      await expect(core.facilityDetail(c, 99_999_999)).rejects.toBeInstanceOf(core.NotFoundError);
    });

    it('keyless search is a preview, flagged as one', async () => {
      const kc = keyless();
      const s = await core.searchFacilities(kc, { q: 'dallas', limit: 20 });
      expect(s).toEqual(await raw('/api/v1/facilities?q=dallas&limit=20', null));
      expect(s._gated).toBe(true);
      expect(s.data.length).toBeLessThanOrEqual(core.FACILITIES_KEYLESS_ROWS);
      expect(core.fetchMeta(s)?.preview).toBe(true);
      const t = core.facilitiesTable(s);
      expectShape(t, s.data.length, ['id']);
      expect(t.columns).not.toContain('power_mw');
      expect(t.note).toMatch(/Showing \d+ of \d+/);
    });

    it('semantic search matches the sandbox (Developer key)', async () => {
      const dc = client(DEV, 'developer');
      const r = await core.semanticSearch(dc, 'hyperscale campus in texas', 3);
      expect(r).toEqual(
        await rawPost('/api/v1/search/semantic', { query: 'hyperscale campus in texas', topK: 3 }, DEV),
      );
      const t = core.semanticTable(r);
      expect(t.columns).toEqual([...core.SEMANTIC_COLUMNS]);
      expectShape(t, 3, ['score', 'power_mw', 'lat', 'lng']);
      expect((await core.semanticSearch(dc, 'dallas')).count).toBe(5); // topK defaults to 5
    });

    it('semantic search without a key is 401 (the real service: 403 plan_required), with a free key 403', async () => {
      const kc = keyless();
      const e401 = await core.semanticSearch(kc, 'gpu cluster').catch((e: unknown) => e);
      expect(e401).toBeInstanceOf(core.AuthError);
      // The real service refuses a missing credential with 403 plan_required, not 401 (notes §1.4).
      expect((e401 as core.AuthError).status).toBe(profile === 'real' ? 403 : 401);
      if (profile === 'real')
        expect(e401).toMatchObject({
          requiredPlan: 'developer',
          message: expect.stringMatching(
            /^This endpoint requires a Developer plan or higher \(your plan: free\); upgrade: https:\/\//,
          ),
        });
      const free = await core.claimKey(keyless(), { client_name: 'semantic-free-test' });
      expect(free.tier).toBe('free');
      const e403 = await core.semanticSearch(client(free.api_key, 'free'), 'gpu cluster').catch((e: unknown) => e);
      expect(e403).toBeInstanceOf(core.AuthError);
      expect((e403 as core.AuthError).status).toBe(403);
    });

    it('bad arguments throw ValidationError before any request', async () => {
      const c = client();
      await rejectsParam(core.searchFacilities(c, { country: 'USA' }), 'country');
      await rejectsParam(core.searchFacilities(c, { limit: 0 }), 'limit');
      await rejectsParam(core.searchFacilities(c, { limit: 101 }), 'limit');
      await rejectsParam(core.searchFacilities(c, { q: 'x'.repeat(201) }), 'q');
      for (const bad of [0, -3, 1.5, 'abc', '', '12a'] as const)
        await rejectsParam(core.facilityDetail(c, bad), 'facility_id');
      await rejectsParam(core.semanticSearch(c, '   '), 'query');
      await rejectsParam(core.semanticSearch(c, 'x', 51), 'topK');
      await rejectsParam(core.semanticSearch(c, 'x', 0), 'topK');
      expect(c.requestsSent).toBe(0);
    });
  });

  describe('feeds', () => {
    it('news matches the sandbox; the table has a stable column order', async () => {
      const c = client();
      const n = await core.news(c, { limit: 5 });
      expect(n).toEqual(await raw('/api/news?limit=5'));
      const t = core.newsTable(n);
      expect(t.columns.slice(0, 5)).toEqual(['published_at', 'source', 'title', 'category', 'url']);
      expect(t.columns).toEqual([...core.NEWS_COLUMNS]);
      expectShape(t, 5, ['relevance_score', 'id']);
      expect(t.rows[0][0]).toBe(n.articles[0].published_at);
      expect(core.newsTable({ ...n, articles: [], count: 0 }).columns).toEqual(t.columns);
      // default limit of /api/news is 10
      expect((await core.news(c)).count).toBe(10);
    });

    it('news alias paths answer 50 by default, as the sandbox does', async () => {
      const c = client();
      for (const path of ['/api/news/live', '/api/agent/news', '/api/news-feed', '/api/v1/news'] as const) {
        const n = await core.news(c, {}, { path });
        expect(n).toEqual(await raw(path));
        expect(n.count).toBe(50);
        expectShape(core.newsTable(n), 50, ['id']);
      }
    });

    it('transactions and the deal aliases', async () => {
      const c = client();
      // A keyed caller of the real service names a year, buyer or seller (notes §2.13, checklist 1).
      const real = profile === 'real';
      const t = await core.transactions(c, { limit: 10, deal_type: 'jv', ...(real ? { year: 2025 } : {}) });
      expect(t).toEqual(await raw(`/api/v1/transactions?limit=10&deal_type=joint_venture${real ? '&year=2025' : ''}`));
      expect(t.transactions.every((d) => d.type === 'joint_venture')).toBe(true);
      const tab = core.dealsTable(t);
      expect(tab.columns).toEqual([...core.DEAL_COLUMNS]);
      expectShape(tab, t.count, ['year', 'id']);
      expectShape(tab, t.count, ['value', 'mw'], { allowBlank: true }); // undisclosed values are null → ''
      expect(tab.rows.some((r) => typeof r[tab.columns.indexOf('value')] === 'number')).toBe(true);
      expect(tab.rows.some((r) => typeof r[tab.columns.indexOf('mw')] === 'number')).toBe(true);
      if (real) {
        const e = await core.transactions(c).catch((err: unknown) => err);
        expect(e).toBeInstanceOf(core.ValidationError);
        expect((e as Error).message).toBe('request: At least one filter is required: year, buyer, seller');
      } else {
        expect((await core.transactions(c)).count).toBe(20);
      }
      for (const alias of ['/api/deals', '/api/v1/deals'] as const) {
        const d = await core.transactions(c, {}, { alias });
        expect(d).toEqual(await raw(alias));
        expect(d.count).toBe(Math.min(100, d.total_count));
      }
    });

    it('pipeline matches the sandbox; status aliases are mapped', async () => {
      const c = client();
      const p = await core.pipeline(c, { status: 'under_construction', limit: 15 });
      expect(p).toEqual(await raw('/api/v1/pipeline?status=construction&limit=15'));
      expect(p.data.every((x) => x.status === 'construction')).toBe(true);
      const t = core.pipelineTable(p);
      expect(t.columns).toEqual([...core.PIPELINE_COLUMNS]);
      expectShape(t, 15, ['id', 'capacity', 'investment', 'lat', 'lng']);
      expect(t.rows.every((r) => typeof r[t.columns.indexOf('preleased')] === 'boolean')).toBe(true);
      expect(t.asOf).toBe(p.last_updated);
    });

    it('bad arguments throw ValidationError before any request', async () => {
      const c = client();
      await rejectsParam(core.news(c, { limit: 201 }), 'limit');
      await rejectsParam(core.news(c, { limit: 'ten' }), 'limit');
      await rejectsParam(core.news(c, {}, { path: '/api/nope' as core.NewsPath }), 'path');
      await rejectsParam(core.transactions(c, { deal_type: 'gift' }), 'deal_type');
      await rejectsParam(core.transactions(c, { year: 1999 }), 'year');
      await rejectsParam(core.transactions(c, {}, { alias: '/api/v2/deals' as '/api/deals' }), 'alias');
      await rejectsParam(core.pipeline(c, { status: 'done' }), 'status');
      await rejectsParam(core.pipeline(c, { limit: 1001 }), 'limit');
      expect(c.requestsSent).toBe(0);
    });
  });

  describe('energy', () => {
    it('fuel mix of an operator (ISO-NE spelling accepted), ERCOT by default', async () => {
      const c = client();
      const m = await core.fuelMix(c, 'iso-ne');
      expect(m).toEqual(await raw('/api/grid/fuel-mix?iso=ISONE'));
      expect(m.iso).toBe('ISONE');
      const t = core.fuelMixTable(m);
      expect(t.columns).toEqual(['source', 'mw', 'percentage']);
      expectShape(t, m.fuel_mix.length, ['mw', 'percentage']);
      expect(t.rows.reduce((s, r) => s + (r[2] as number), 0)).toBeCloseTo(100, 0);
      expect(t.asOf).toBe(m.timestamp);
      expect((await core.fuelMix(c)).iso).toBe('ERCOT');
    });

    it('retail prices of a state, by code or name', async () => {
      const c = client();
      const p = await core.energyPrices(c, 'New York');
      const served = await raw('/api/energy/prices/New%20York');
      if (profile === 'real') {
        // The real service sends the four prices as decimal text ("7.23", notes §2.17): read as numbers.
        const prices = [
          'industrial_price_cents_kwh',
          'commercial_price_cents_kwh',
          'residential_price_cents_kwh',
          'all_sectors_price_cents_kwh',
        ];
        for (const k of prices) {
          expect(served[k]).toMatch(/^\d+\.\d\d$/);
          served[k] = Number(served[k]);
        }
      }
      expect(p).toEqual(served);
      expect(p.state).toBe('NY');
      const t = core.pricesTable(p);
      expect(t.columns).toEqual(['field', 'value']);
      expect(t.rows).toContainEqual(['industrial_price_cents_kwh', p.industrial_price_cents_kwh]);
      expect(t.rows).toContainEqual(['estimated_monthly_cost_per_mw', p.estimated_monthly_cost_per_mw]);
      const trend = t.rows.filter((r) => String(r[0]).startsWith('price_trend_12mo.'));
      expect(trend).toHaveLength(12);
      expect(trend.every((r) => typeof r[1] === 'number')).toBe(true);
      expect((await core.energyPrices(c, 'tx')).state).toBe('TX');
      await expect(core.energyPrices(c, 'Atlantis')).rejects.toBeInstanceOf(core.NotFoundError);
    });

    it('grid regions: all five with a key, a flagged preview without', async () => {
      const c = client();
      const g = await core.gridRegions(c);
      expect(g).toEqual(await raw('/api/v1/grid-intelligence'));
      expect(g._gated).toBeUndefined();
      const t = core.gridRegionsTable(g);
      expect(t.columns).toEqual([...core.GRID_REGION_COLUMNS]);
      expectShape(t, 5, ['total_queue_gw', 'large_load_queue_gw', 'corridor_count']);
      expect(t.rows.map((r) => r[0])).toEqual([...core.GRID_REGION_IDS]);
      expect(t.note).toBeUndefined();

      const preview = await core.gridRegions(keyless());
      expect(preview._gated).toBe(true);
      expect(preview.regions).toHaveLength(core.GRID_REGIONS_KEYLESS);
      expect(core.fetchMeta(preview)?.preview).toBe(true);
      const pt = core.gridRegionsTable(preview);
      expectShape(pt, 3, ['total_queue_gw']);
      expect(pt.note).toMatch(/Showing 3 of 5/);

      const one = await core.gridRegion(c, 'PJM');
      expect(one).toEqual(await raw('/api/v1/grid-intelligence/pjm'));
      expect(one.region.id).toBe('pjm');
      await expect(core.gridRegion(c, 'tva')).rejects.toBeInstanceOf(core.NotFoundError);
    });

    it('bad arguments throw ValidationError before any request', async () => {
      const c = client();
      await rejectsParam(core.fuelMix(c, 'TVA'), 'iso');
      await rejectsParam(core.energyPrices(c, '   '), 'state');
      await rejectsParam(core.energyPrices(c, undefined as unknown as string), 'state');
      await rejectsParam(core.gridRegion(c, ''), 'region_id');
      await rejectsParam(core.gridRegion(c, '../stats'), 'region_id');
      expect(c.requestsSent).toBe(0);
    });
  });

  describe('agent and account', () => {
    afterEach(() => vi.restoreAllMocks());

    it('claims a key, returns it to the caller and logs nothing', async () => {
      const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
        vi.spyOn(console, m).mockImplementation(() => {}),
      );
      const kc = keyless();
      const a = await core.claimKey(kc, { client_name: 'feeds-energy-agent-test', email: 'a@example.com' });
      expect(a.api_key).toMatch(/^dch_live_[0-9a-f]{32}$/);
      expect(a.tier).toBe('free');
      expect(a.reused).toBe(false);
      const b = await core.claimKey(kc, { client_name: 'feeds-energy-agent-test' });
      expect(b.api_key).toBe(a.api_key);
      expect(b.reused).toBe(true);
      for (const s of spies) expect(s).not.toHaveBeenCalled();
      // the claimed key works
      const me = await core.whoami(client(a.api_key, 'free'));
      expect(me.authenticated).toBe(true);
    });

    it('whoami is not cached; keyless answers with auth instructions', async () => {
      const c = client();
      const me = await core.whoami(c);
      const r = await raw('/api/agent/whoami');
      expect(me.authenticated).toBe(true);
      if (!me.authenticated) throw new Error('unreachable');
      expect(me.agent.name).toBe(r.agent.name);
      const again = await core.whoami(c);
      expect(c.requestsSent).toBe(2);
      if (!again.authenticated) throw new Error('unreachable');
      expect(again.agent.api_calls_remaining).toBeLessThan(me.agent.api_calls_remaining);
      const anon = await core.whoami(keyless());
      expect(anon.authenticated).toBe(false);
    });

    it('capabilities, stats and onboarding match the sandbox', async () => {
      const c = client();
      const cap = await core.agentCapabilities(c);
      expect(cap).toEqual(await raw('/api/agent/capabilities'));
      const ct = core.capabilitiesTable(cap);
      expect(ct.columns.slice(0, 3)).toEqual(['name', 'endpoint', 'description']);
      expectShape(ct, cap.capabilities.length);
      expect(ct.rows[0][ct.columns.indexOf('params')]).toBe('q, country, limit');
      const et = core.agentEndpointsTable(cap);
      expect(et.columns).toEqual(['method', 'path', 'auth']);
      expectShape(et, cap.endpoints.length);

      const st = await core.agentStats(c);
      expect(st).toEqual(await raw('/api/agent/stats'));
      expect(typeof st.stats.total_facilities).toBe('number');

      const ob = await core.onboard(c, 'MCP');
      expect(ob).toEqual(await raw('/api/v1/onboard?type=mcp'));
      expect(ob.category).toBe('mcp');
    });

    it('agent facility search (country by name)', async () => {
      const c = client();
      const f = await core.agentFacilities(c, { q: 'dallas', country: 'united states', limit: 4 });
      const r = await raw('/api/agent/facilities?q=dallas&country=united+states&limit=4');
      const strip = ({ api_calls_remaining: _a, ...o }: Record<string, unknown>) => o;
      expect(strip(f)).toEqual(strip(r));
      const t = core.agentFacilitiesTable(f);
      expect(t.columns.slice(0, 3)).toEqual(['id', 'name', 'provider']);
      expectShape(t, 4, ['id', 'power_mw', 'latitude', 'longitude']);
    });

    it('receipts and one receipt', async () => {
      const c = client();
      const l = await core.receipts(c);
      const served = await raw('/api/v1/receipts');
      // as_of is the sandbox clock to the second, which runs on between the two calls (a flake under load).
      expect(Date.parse(served.as_of) - Date.parse(l.as_of)).toBeGreaterThanOrEqual(0);
      expect(Date.parse(served.as_of) - Date.parse(l.as_of)).toBeLessThanOrEqual(1000);
      expect(l).toEqual({ ...served, as_of: l.as_of });
      const t = core.receiptsTable(l);
      expect(t.columns).toEqual([...core.RECEIPT_COLUMNS]);
      expectShape(t, l.counts.published_runs, ['run_id', 'model_replies', 'api_call_count', 'http_5xx_seen']);
      const id = l.receipts[0].run_id;
      const one = await core.receipt(c, id);
      expect(one).toEqual(await raw(`/api/v1/receipts/${id}`));
      const calls = core.receiptCallsTable(one);
      expectShape(calls, one.api_calls.length, ['n', 'response_bytes']);
      await expect(core.receipt(c, 999_999)).rejects.toBeInstanceOf(core.NotFoundError);
    });

    it('bad arguments throw ValidationError before any request', async () => {
      const c = client();
      await rejectsParam(core.claimKey(c, { client_name: 'x'.repeat(201) }), 'client_name');
      await rejectsParam(core.claimKey(c, { email: 'y'.repeat(201) }), 'email');
      await rejectsParam(core.agentFacilities(c, { limit: 101 }), 'limit');
      await rejectsParam(core.onboard(c, 'fax'), 'type');
      for (const bad of [0, 'x', -1, 2.5] as const) await rejectsParam(core.receipt(c, bad), 'run_id');
      expect(c.requestsSent).toBe(0);
    });
  });

  describe('news refresh after the clock moves', () => {
    it('a cached answer until refresh, then a newer first article', async () => {
      const c = client();
      const before = await core.news(c, { limit: 3 });
      const cached = await core.news(c, { limit: 3 });
      expect(fetchMetaOf(cached).fromCache).toBe(true);
      const moved = await (
        await fetch(`${sb.url}/_sandbox/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advance_seconds: 300 }),
        })
      ).json();
      expect(moved.now).toMatch(/^2026-11-21T12:0[5-9]:/); // the sandbox clock runs on from its start time
      expect((await core.news(c, { limit: 3 })).articles[0].id).toBe(before.articles[0].id);
      const after = await core.news(c, { limit: 3 }, { refresh: true });
      expect(fetchMetaOf(after).fromCache).toBe(false);
      expect(after).toEqual(await raw('/api/news?limit=3'));
      expect(after.articles[0].id).not.toBe(before.articles[0].id);
      expect(Date.parse(after.articles[0].published_at!)).toBeGreaterThan(Date.parse(before.articles[0].published_at!));
      expect(core.newsTable(after).rows[0][0]).toBe(after.articles[0].published_at);
    });
  });
});
