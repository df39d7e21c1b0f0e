import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BRIEF_CSV_COLUMNS } from '@dchub/core';
import { scoringDay } from '../src/data/markets.js';
import { SEED_MARKETS } from '../src/domain/briefs.js';
import { unit } from '../src/rng.js';
import { startSandbox, type RunningSandbox } from '../src/server.js';

/** The real-service profile (DCHUB_SANDBOX_PROFILE=real): every quirk the README's table lists. */
const KEYS = { free: 'real-free', developer: 'real-dev', pro: 'real-pro', enterprise: 'real-ent' };
let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'real',
    now: '2026-11-21T12:00:00Z',
    keys: Object.entries(KEYS)
      .map(([t, k]) => `${t}=${k}`)
      .join(','),
    controls: true,
    profile: 'real',
  });
});
afterAll(() => sb?.close());
beforeEach(async () => {
  await fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' });
  await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
});

type Obj = Record<string, any>;
async function get(path: string, key?: string, ip?: string) {
  const headers: Record<string, string> = {};
  if (key) headers['X-API-Key'] = key;
  if (ip) headers['X-Forwarded-For'] = ip;
  const res = await fetch(sb.url + path, { headers, redirect: 'manual' });
  const text = await res.text();
  let body: Obj = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, body };
}

describe('real profile: refined queue (notes §2.21, §1.3)', () => {
  const Q = '/api/v1/interconnection-queue/refined';

  it('survivors are results[]; below Developer a 3-row tease with null numerics, rounded coordinates and §1.3 markers', async () => {
    for (const key of [undefined, KEYS.free]) {
      const { status, body } = await get(`${Q}?iso=PJM&min_mw=500&max_fiber_km=40&limit=50`, key);
      expect(status).toBe(200);
      expect(body.results).toHaveLength(3);
      for (const r of body.results) {
        expect(r.capacity_mw).toBeNull();
        expect(r.estimated_ttp_months).toBeNull();
        expect(r.fiber_km).toBeNull();
        expect(r.site_evaluation_handoff).toBeNull();
        if (r.lat !== null) expect(Math.round(r.lat * 100) / 100).toBe(r.lat);
      }
      expect(body.total_queued_mw).toBeNull();
      expect(body._gated).toBe(true);
      expect(body._preview_only).toBe(true);
      expect(body._locked_fields).toEqual([...body._locked_fields].sort());
      expect(body._locked_fields).toEqual(expect.arrayContaining(['capacity_mw', 'fiber_km']));
      expect(body._total_available).toBe(body.count_total_matching);
      // Only what the caller sent and the tease ignored.
      expect(body._preview_params_not_applied).toEqual(['limit', 'max_fiber_km', 'min_mw']);
      expect(body.upgrade_options.map((o: Obj) => o.plan)).toEqual(['pack', 'developer']);
      // The spec's §5.3 markers are not the real service's.
      expect(body).not.toHaveProperty('_hidden_count');
      expect(body).not.toHaveProperty('_upgrade_cta');
    }
  });

  it('without caller filters the tease names nothing as not applied', async () => {
    const { body } = await get(`${Q}?iso=ERCOT`);
    expect(body).not.toHaveProperty('_preview_params_not_applied');
  });

  it('Developer and above get the full answer with no-store headers', async () => {
    const { status, headers, body } = await get(`${Q}?iso=PJM&min_mw=500&limit=10`, KEYS.developer);
    expect(status).toBe(200);
    expect(body.results.length).toBe(10);
    expect(body.results[0].capacity_mw).toBeGreaterThanOrEqual(500);
    expect(body).not.toHaveProperty('_gated');
    expect(headers.get('cache-control')).toBe('private, no-store, max-age=0');
    expect(headers.get('pragma')).toBe('no-cache');
  });
});

describe('real profile: site score (notes §2.15)', () => {
  it('reads `capacity` (not capacity_mw) and `lon` (not lng)', async () => {
    const real = await get('/api/site-score?lat=39.04&lon=-77.49&capacity=120', KEYS.pro);
    expect(real.body.capacity_requested_mw).toBe(120);
    const specName = await get('/api/site-score?lat=39.04&lon=-77.49&capacity_mw=120', KEYS.pro);
    expect(specName.body.capacity_requested_mw).toBeNull();
    const lng = await get('/api/site-score?lat=39.04&lng=-77.49', KEYS.pro);
    expect(lng.status).toBe(400);
    expect(lng.body.param).toBe('lon');
  });

  it('a zero coordinate is "missing": 400 lat and lon are required', async () => {
    const { status, body } = await get('/api/site-score?lat=0&lon=-77.49', KEYS.pro);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'lat and lon are required' });
  });

  it('a key below Pro gets the verdict band and counts with every score null', async () => {
    const { status, body } = await get('/api/site-score?lat=39.04&lon=-77.49', KEYS.developer);
    expect(status).toBe(200);
    expect(body.overall_score).toBeNull();
    expect(Object.values(body.scores).every((v) => v === null)).toBe(true);
    expect(typeof body.verdict_band).toBe('string');
    expect(body.nearby.facilities_100km).toBeTypeOf('number');
    expect(body._preview_only).toBe(true);
    expect(body._locked_fields).toEqual(['fiber', 'overall_score', 'scores']);
    // The plan that opens it is Pro, even for a Developer key (the queue's tease offers Developer).
    expect(body.required_plan).toBe('pro');
    expect(body.upgrade_options.map((o: { plan: string }) => o.plan)).toEqual(['pro']);
  });

  it('keyless callers get two full scores a day, then 402 paid_preview', async () => {
    const ip = '10.9.0.1';
    for (let i = 0; i < 2; i++) {
      const ok = await get('/api/site-score?lat=39.04&lon=-77.49', undefined, ip);
      expect(ok.status).toBe(200);
      expect(ok.body.overall_score).toBeTypeOf('number');
    }
    const paid = await get('/api/site-score?lat=39.04&lon=-77.49', undefined, ip);
    expect(paid.status).toBe(402);
    expect(paid.body).toMatchObject({ status: 'paid_preview', preview: true });
    expect(paid.body.human_message).toMatch(/Pro/);
    expect(paid.body.agent_action).toMatchObject({ method: 'POST' });
  });
});

describe('real profile: walls and keys (notes §1.4, §2.14, §2.16, §2.17)', () => {
  it('no credential on a require_plan route is 403 plan_required (not 401), with an agent claim hint', async () => {
    const { status, body } = await get('/api/v1/facilities/detail/1000');
    expect(status).toBe(403);
    expect(body).toMatchObject({
      success: false,
      error: 'plan_required',
      required_plan: 'free',
      tier_signal: 'hard_paywall',
    });
    expect(body.agent_claim.url).toMatch(/keys\/claim$/);
  });

  it('pipeline, fuel mix and energy prices are walled below Developer (403 keyed-walls gate for a free key)', async () => {
    for (const path of ['/api/v1/pipeline', '/api/grid/fuel-mix?iso=PJM', '/api/energy/prices/TX']) {
      const anon = await get(path);
      expect(anon.status, path).toBe(403);
      expect(anon.body.error).toBe('plan_required');
      const free = await get(path, KEYS.free);
      expect(free.status, path).toBe(403);
      expect(free.body).toMatchObject({
        error: 'plan_upgrade_required',
        required_plan: 'developer',
        current_plan: 'free',
      });
      expect((await get(path, KEYS.developer)).status, path).toBe(200);
    }
  });

  it('an unknown key is 401 invalid_api_key with no-store headers', async () => {
    const { status, headers, body } = await get('/api/v1/stats', 'nope-not-a-key');
    expect(status).toBe(401);
    expect(body).toMatchObject({ success: false, error: 'invalid_api_key', message: 'Invalid or inactive API key' });
    expect(headers.get('cache-control')).toBe('private, no-store, max-age=0');
  });
});

describe('real profile: rate-limit headers (notes §1.5, §1.4)', () => {
  it('X-RateLimit-Remaining counts the minute bucket; keyed calls add the daily limit and tier; no X-RateLimit-Reset', async () => {
    const a = await get('/api/v1/markets', undefined, '10.9.1.1');
    const b = await get('/api/v1/markets', undefined, '10.9.1.1');
    expect(Number(a.headers.get('x-ratelimit-remaining'))).toBeLessThan(20);
    expect(Number(b.headers.get('x-ratelimit-remaining'))).toBeLessThan(Number(a.headers.get('x-ratelimit-remaining')));
    expect(a.headers.get('x-ratelimit-reset')).toBeNull();
    expect(a.headers.get('x-ratelimit-limit')).toBeNull();
    const keyed = await get('/api/v1/markets', KEYS.pro);
    expect(keyed.headers.get('x-ratelimit-limit')).toBe('2000');
    expect(keyed.headers.get('x-ratelimit-tier')).toBe('pro');
  });

  it('a spent daily allowance is 429 daily_limit_reached with resets_at and no Retry-After', async () => {
    for (let i = 0; i < 10; i++) expect((await get('/api/v1/stats', undefined, '10.9.2.1')).status).toBe(200);
    const over = await get('/api/v1/stats', undefined, '10.9.2.1');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'daily_limit_reached', records_remaining: 0 });
    expect(over.body.resets_at).toBe('2026-11-22T00:00:00Z');
    expect(over.headers.get('retry-after')).toBeNull();
  });
});

describe('real profile: gated numerics, teases and decimal strings', () => {
  it('DCPI of one market: the verdict is free, the four numbers null below Developer (notes §2.6)', async () => {
    const free = await get('/api/v1/dcpi/scores/dallas', KEYS.free);
    expect(free.status).toBe(200);
    expect(['BUILD', 'CAUTION', 'AVOID']).toContain(free.body.verdict);
    for (const k of ['composite_score', 'excess_power_score', 'constraint_score', 'time_to_power_months'])
      expect(free.body[k], k).toBeNull();
    expect(free.body._locked_fields).toEqual([
      'composite_score',
      'constraint_score',
      'excess_power_score',
      'time_to_power_months',
    ]);
    const dev = await get('/api/v1/dcpi/scores/dallas', KEYS.developer);
    expect(dev.body.composite_score).toBeTypeOf('number');
  });

  it('AI capacity index: keyless and free keys get the banded tease with §1.3 markers (notes §2.8)', async () => {
    const { body } = await get('/api/v1/ai-capacity-index?limit=5', KEYS.free);
    expect(body.markets[0].score).toBeNull();
    expect(body.markets[0].deployable_mw.value).toBeNull();
    expect(body.markets[0].deployable_mw.band).toMatch(/MW|GW/);
    expect(body.markets[0]).not.toHaveProperty('score_band');
    expect(body._total_available).toBeGreaterThanOrEqual(body.markets.length);
    expect(body).not.toHaveProperty('_hidden_count');
    const dev = await get('/api/v1/ai-capacity-index?limit=5', KEYS.developer);
    expect(dev.body.markets[0].score).toBeTypeOf('number');
  });

  it('energy prices arrive as decimal strings (notes §2.17)', async () => {
    const { body } = await get('/api/energy/prices/TX', KEYS.developer);
    expect(body.industrial_price_cents_kwh).toMatch(/^\d+\.\d{2}$/);
    expect(body.commercial_price_cents_kwh).toMatch(/^\d+\.\d{2}$/);
    expect(body.estimated_monthly_cost_per_mw).toBeTypeOf('number');
  });

  it('transactions: keyless = the 3 newest with basic fields, limit and deal_type ignored (notes §2.13)', async () => {
    const { status, body } = await get('/api/v1/transactions?limit=50&deal_type=lease');
    expect(status).toBe(200);
    expect(body.transactions).toHaveLength(3);
    expect(Object.keys(body.transactions[0]).sort()).toEqual(['buyer', 'date', 'market', 'region', 'seller', 'type']);
    expect(new Set(body.transactions.map((d: Obj) => d.type)).size).toBeGreaterThanOrEqual(1);
    expect(body).toMatchObject({ success: true, count: 3, tier: 'free', full_results_available: true });
    expect(body.note).toMatch(/showing 3 of \d+ transactions/);
  });

  it('transactions: keyed calls need Pro and one of year, buyer, seller (400 search_filter_required)', async () => {
    expect((await get('/api/v1/transactions', KEYS.free)).status).toBe(403);
    const bare = await get('/api/v1/transactions', KEYS.pro);
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({
      error: 'search_filter_required',
      message: 'At least one filter is required: year, buyer, seller',
    });
    const year = await get('/api/v1/transactions?year=2025&limit=5', KEYS.pro);
    expect(year.status).toBe(200);
    expect(year.body.transactions.every((d: Obj) => d.year === 2025)).toBe(true);
    // The alias listing stays freemium.
    expect((await get('/api/v1/deals?limit=2')).status).toBe(200);
  });
});

describe('real profile: market briefs (notes §2.29)', () => {
  const day = scoringDay(Date.parse('2026-11-21T12:00:00Z'));
  const failing = SEED_MARKETS[Math.floor(unit('real', 'brief-build-failure', day) * 5)];

  it('one brief of /all fails to build: ok:false, build_failed, no hero; the others are whole', async () => {
    const { status, body } = await get('/api/v1/market-brief/all');
    expect(status).toBe(200);
    expect(body.count).toBe(5);
    const bad = body.briefs.filter((b: Obj) => b.ok === false);
    expect(bad).toEqual([{ ok: false, slug: failing, error: 'build_failed:KeyError:hero' }]);
    for (const b of body.briefs.filter((x: Obj) => x.ok !== false)) expect(b.hero.verdict).toBeTruthy();
  });

  it('the CSV carries the failed market as slug, empty cells and build_failed in the last column', async () => {
    const { text } = await get('/api/v1/market-brief/all.csv');
    const line = text.split('\r\n').find((l) => l.startsWith(`${failing},`))!;
    const cells = line.split(',');
    expect(cells).toHaveLength(BRIEF_CSV_COLUMNS.length);
    expect(cells[cells.length - 1]).toBe('build_failed:KeyError');
    expect(cells.slice(1, -1).every((c) => c === '')).toBe(true);
  });
});

describe('fault controls: HTML gateway pages and redirects', () => {
  const faults = (rules: unknown) =>
    fetch(`${sb.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(rules),
    });

  it.each([502, 524])('html_gateway %i answers a Cloudflare-style HTML page', async (status) => {
    expect(
      (await faults([{ path_prefix: '/api/v1/stats', kind: 'html_gateway', gateway_status: status, count: 1 }])).status,
    ).toBe(200);
    const res = await get('/api/v1/stats');
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!DOCTYPE html>/);
    expect(res.text).toContain(`Error code ${status}`);
    expect(res.text).toContain('cloudflare');
    expect((await get('/api/v1/stats')).status).toBe(200);
  });

  it('redirect sends the request to another origin (path kept), which a second server receives', async () => {
    let seen: { url?: string; key?: string } = {};
    const other: Server = createServer((req, res) => {
      seen = { url: req.url, key: req.headers['x-api-key'] as string | undefined };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"elsewhere":true}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const port = (other.address() as { port: number }).port;
    try {
      await faults([
        {
          path_prefix: '/api/v1/markets',
          kind: 'redirect',
          location: `http://localhost:${port}/`,
          redirect_status: 307,
        },
      ]);
      const manual = await get('/api/v1/markets?x=1', KEYS.pro);
      expect(manual.status).toBe(307);
      expect(manual.headers.get('location')).toBe(`http://localhost:${port}/api/v1/markets?x=1`);
      const followed = await fetch(`${sb.url}/api/v1/markets?x=1`);
      expect(await followed.json()).toEqual({ elsewhere: true });
      expect(seen.url).toBe('/api/v1/markets?x=1');
    } finally {
      other.close();
    }
  });

  it('a redirect rule without a location is refused', async () => {
    const res = await faults([{ path_prefix: '/api', kind: 'redirect' }]);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/location/);
  });
});

describe('real profile: MCP walls and partial previews (notes §3.1)', () => {
  async function connect(key?: string) {
    const client = new Client({ name: 'real-profile-test', version: '0.0.1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${sb.url}/mcp`), {
        requestInit: { headers: key ? { 'X-API-Key': key } : {} },
      }),
    );
    return client;
  }

  it('a Pro wall is human text naming pro_required and the upgrade URL, with for_your_human', async () => {
    const client = await connect(KEYS.free);
    try {
      const r = (await client.callTool({ name: 'analyze_site', arguments: { lat: 39, lon: -77 } })) as Obj;
      expect(r.isError).toBe(true);
      const text = r.content[0].text as string;
      expect(() => JSON.parse(text)).toThrow();
      expect(text).toContain('pro_required');
      expect(text).toContain('https://dchub.cloud/pricing');
      expect(r.structuredContent).toMatchObject({ error: 'pro_required', _wall: true, show_to_user: true });
      expect(r.structuredContent.for_your_human).toMatchObject({
        url: 'https://dchub.cloud/pricing',
        render: 'verbatim_link_required',
      });
    } finally {
      await client.close();
    }
  });

  it('keyless list tools answer a partial preview of 3 rows that says "3 of N"', async () => {
    const client = await connect();
    try {
      const r = (await client.callTool({ name: 'rank_markets', arguments: { limit: 10 } })) as Obj;
      const data = r.structuredContent;
      expect(data.results).toHaveLength(3);
      expect(data.preview_is_partial).toBe(true);
      expect(data._results_total_in_pro).toBe(10);
      expect(data.continuation).toMatchObject({
        status: 'upgrade_required',
        gated: { records_available: 10, records_shown: 3, records_field: 'results' },
      });
      expect(r.content[0].text).toContain('3 of 10 results');
    } finally {
      await client.close();
    }
  });
});
