import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../src/server.js';

/**
 * /openapi.json is generated from the route declarations: check it is valid OpenAPI 3.1, that
 * every operation is exercised here, and that each answer matches the schema it documents.
 */
const KEY = 'openapi-enterprise';
let sb: RunningSandbox;
let doc: any;

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'openapi',
    now: '2026-11-21T12:00:00Z',
    keys: `enterprise=${KEY}`,
    limits: false,
  });
  doc = await (await fetch(`${sb.url}/openapi.json`)).json();
});
afterAll(() => sb?.close());

interface Sample {
  /** `METHOD /openapi/{path}` */
  op: string;
  url: string;
  body?: unknown;
  status?: number;
  keyless?: boolean;
}

/** One or more calls per documented operation (add a line when you add a route). */
const SAMPLES: Sample[] = [
  { op: 'GET /api/health', url: '/api/health' },
  { op: 'GET /api/site-score', url: '/api/site-score?lat=39.04&lon=-77.49&capacity_mw=100' },
  { op: 'GET /api/site-score', url: '/api/site-score?lat=abc&lon=1', status: 400 },
  { op: 'GET /api/v1/interconnection-queue/refined', url: '/api/v1/interconnection-queue/refined?iso=PJM&limit=5' },
  {
    op: 'GET /api/v1/interconnection-queue/refined',
    url: '/api/v1/interconnection-queue/refined?iso=PJM',
    keyless: true,
  },
  {
    op: 'GET /api/v1/interconnection-queue/refined',
    url: '/api/v1/interconnection-queue/refined?min_mw=x',
    status: 400,
  },
  { op: 'GET /api/v1/market-brief/all.csv', url: '/api/v1/market-brief/all.csv' },
  { op: 'POST /api/v1/keys/claim', url: '/api/v1/keys/claim', body: { client_name: 'openapi-test' } },
  { op: 'GET /api/v1/stats', url: '/api/v1/stats' },
  { op: 'GET /api/v1/markets', url: '/api/v1/markets' },
  { op: 'GET /api/v1/markets/list', url: '/api/v1/markets/list', keyless: true },
  { op: 'GET /api/v1/markets/compare', url: '/api/v1/markets/compare?markets=dallas,nova' },
  { op: 'GET /api/v1/markets/compare', url: '/api/v1/markets/compare?markets=dallas', status: 400 },
  { op: 'GET /api/v1/markets/compare', url: '/api/v1/markets/compare?markets=dallas,atlantis', status: 404 },
  { op: 'GET /api/v1/markets/{market_name}', url: '/api/v1/markets/northern-virginia' },
  { op: 'GET /api/v1/markets/{market_name}', url: '/api/v1/markets/atlantis', status: 404 },
  { op: 'GET /api/v1/dcpi/scores', url: '/api/v1/dcpi/scores?sort=composite&limit=10' },
  { op: 'GET /api/v1/dcpi/scores', url: '/api/v1/dcpi/scores', keyless: true },
  { op: 'GET /api/v1/dcpi/scores', url: '/api/v1/dcpi/scores?sort=best', status: 400 },
  { op: 'GET /api/v1/dcpi/scores/{market_slug}', url: '/api/v1/dcpi/scores/nova' },
  { op: 'GET /api/v1/dcpi/scores/{market_slug}', url: '/api/v1/dcpi/scores/atlantis', status: 404 },
  { op: 'GET /api/v1/dcpi/leaderboard', url: '/api/v1/dcpi/leaderboard?verdict=BUILD&limit=10' },
  { op: 'GET /api/v1/dcpi/leaderboard', url: '/api/v1/dcpi/leaderboard?limit=101', status: 400 },
  { op: 'GET /api/v1/ai-capacity-index', url: '/api/v1/ai-capacity-index?horizon=30' },
  { op: 'GET /api/v1/ai-capacity-index', url: '/api/v1/ai-capacity-index', keyless: true },
  { op: 'GET /api/v1/ai-capacity-index', url: '/api/v1/ai-capacity-index?horizon=45', status: 400 },
  { op: 'GET /api/v1/market-brief/all', url: '/api/v1/market-brief/all' },
  { op: 'GET /api/v1/market-brief/all', url: '/api/v1/market-brief/all?limit=500' },
  { op: 'GET /api/v1/market-brief/all', url: '/api/v1/market-brief/all?limit=51', keyless: true, status: 400 },
  { op: 'GET /api/v1/market-brief/diff', url: '/api/v1/market-brief/diff?since=2026-11-01T00:00:00Z' },
  { op: 'GET /api/v1/market-brief/diff', url: '/api/v1/market-brief/diff?since=yesterday', status: 400 },
  { op: 'GET /api/v1/market-brief/{slug}', url: '/api/v1/market-brief/nova' },
  { op: 'GET /api/v1/market-brief/{slug}', url: '/api/v1/market-brief/dallas', keyless: true },
  { op: 'GET /api/v1/market-brief/{slug}', url: '/api/v1/market-brief/atlantis', status: 404 },
  { op: 'GET /api/v1/facilities', url: '/api/v1/facilities?q=dallas&limit=3' },
  { op: 'GET /api/v1/facilities', url: '/api/v1/facilities?q=dallas', keyless: true },
  { op: 'GET /api/v1/facilities', url: '/api/v1/facilities?country=USA', status: 400 },
  { op: 'GET /api/v1/facilities/detail/{facility_id}', url: '/api/v1/facilities/detail/1000' },
  {
    op: 'GET /api/v1/facilities/detail/{facility_id}',
    url: '/api/v1/facilities/detail/1000',
    keyless: true,
    status: 401,
  },
  { op: 'GET /api/v1/facilities/detail/{facility_id}', url: '/api/v1/facilities/detail/x', status: 400 },
  { op: 'GET /api/v1/facilities/detail/{facility_id}', url: '/api/v1/facilities/detail/1', status: 404 },
  { op: 'POST /api/v1/search/semantic', url: '/api/v1/search/semantic', body: { query: 'equinix dallas', topK: 3 } },
  { op: 'POST /api/v1/search/semantic', url: '/api/v1/search/semantic', body: { topK: 3 }, status: 400 },
  {
    op: 'POST /api/v1/search/semantic',
    url: '/api/v1/search/semantic',
    body: { query: 'x' },
    keyless: true,
    status: 401,
  },
  { op: 'GET /api/news', url: '/api/news?limit=5' },
  { op: 'GET /api/news', url: '/api/news?limit=500', status: 400 },
  { op: 'GET /api/v1/news', url: '/api/v1/news?limit=2' },
  { op: 'GET /api/news/live', url: '/api/news/live?limit=2' },
  { op: 'GET /api/agent/news', url: '/api/agent/news?limit=2' },
  { op: 'GET /api/news-feed', url: '/api/news-feed?limit=2' },
  { op: 'GET /api/v1/transactions', url: '/api/v1/transactions?deal_type=merger' },
  { op: 'GET /api/v1/transactions', url: '/api/v1/transactions?deal_type=x', status: 400 },
  { op: 'GET /api/v1/deals', url: '/api/v1/deals?limit=3' },
  { op: 'GET /api/deals', url: '/api/deals?limit=3' },
  { op: 'GET /api/v1/pipeline', url: '/api/v1/pipeline?status=announced&limit=5' },
  { op: 'GET /api/v1/pipeline', url: '/api/v1/pipeline?status=x', status: 400 },
  { op: 'GET /api/grid/fuel-mix', url: '/api/grid/fuel-mix?iso=PJM' },
  { op: 'GET /api/grid/fuel-mix', url: '/api/grid/fuel-mix?iso=X', status: 400 },
  { op: 'GET /api/energy/prices/{state}', url: '/api/energy/prices/TX' },
  { op: 'GET /api/energy/prices/{state}', url: '/api/energy/prices/ZZ', status: 404 },
  { op: 'GET /api/v1/grid-intelligence', url: '/api/v1/grid-intelligence' },
  { op: 'GET /api/v1/grid-intelligence', url: '/api/v1/grid-intelligence', keyless: true },
  { op: 'GET /api/v1/grid-intelligence/{region_id}', url: '/api/v1/grid-intelligence/pjm' },
  { op: 'GET /api/v1/grid-intelligence/{region_id}', url: '/api/v1/grid-intelligence/zz', status: 404 },
  { op: 'GET /api/v1/grid-intelligence/{region_id}', url: '/api/v1/grid-intelligence/pjm', keyless: true, status: 401 },
  { op: 'GET /api/agent/capabilities', url: '/api/agent/capabilities' },
  { op: 'GET /api/agent/whoami', url: '/api/agent/whoami' },
  { op: 'GET /api/agent/whoami', url: '/api/agent/whoami', keyless: true },
  { op: 'GET /api/agent/facilities', url: '/api/agent/facilities?country=germany&limit=2' },
  { op: 'GET /api/agent/facilities', url: '/api/agent/facilities?limit=101', status: 400 },
  { op: 'GET /api/agent/stats', url: '/api/agent/stats' },
  { op: 'GET /api/v1/onboard', url: '/api/v1/onboard?type=rest' },
  { op: 'GET /api/v1/onboard', url: '/api/v1/onboard?type=x', status: 400 },
  { op: 'GET /api/v1/receipts', url: '/api/v1/receipts' },
  { op: 'GET /api/v1/receipts/{run_id}', url: '/api/v1/receipts/1001' },
  { op: 'GET /api/v1/receipts/{run_id}', url: '/api/v1/receipts/abc', status: 400 },
  { op: 'GET /api/v1/receipts/{run_id}', url: '/api/v1/receipts/1', status: 404 },
  // parcel analysis and multi-site ranking (sandbox/src/routes/parcel.ts, ranking.ts)
  {
    op: 'POST /api/v1/analyze-parcel',
    url: '/api/v1/analyze-parcel',
    keyless: true,
    body: {
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-77.49, 39.02],
            [-77.485, 39.02],
            [-77.485, 39.0245],
            [-77.49, 39.0245],
            [-77.49, 39.02],
          ],
        ],
      },
      capacity_mw: 100,
    },
  },
  {
    op: 'POST /api/v1/analyze-parcel',
    url: '/api/v1/analyze-parcel',
    body: {
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 95],
            [1, 0],
          ],
        ],
      },
    },
    status: 400,
  },
  {
    op: 'POST /api/v1/rank-sites',
    url: '/api/v1/rank-sites',
    body: {
      candidates: [
        { id: 'a', fiber_km: 3, capacity_mw: 200 },
        { id: 'b', fiber_km: 9, capacity_mw: 400 },
      ],
      objectives: { fiber_km: -1, capacity_mw: 1 },
    },
  },
  {
    op: 'POST /api/v1/rank-sites',
    url: '/api/v1/rank-sites',
    body: { candidates: [{ id: 'a', fiber_km: 3 }], objectives: { fiber_km: -1 }, percentile: true },
  },
  {
    op: 'POST /api/v1/rank-sites',
    url: '/api/v1/rank-sites',
    body: { candidates: [], objectives: { fiber_km: -1 } },
    status: 400,
  },
];

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents the API key scheme', () => {
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('documents exactly the endpoints core describes (ENDPOINTS), each served from its descriptor', () => {
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m} ${p}`),
    );
    const described = Object.values(ENDPOINTS as Record<string, Endpoint>).flatMap((e) =>
      [e.path, ...(e.aliases ?? [])].map((p) => `${e.method} ${p.replace(/:([A-Za-z_]+)/g, '{$1}')}`),
    );
    expect(ops.sort()).toEqual(described.sort());
  });

  it('every documented operation is exercised by a sample', () => {
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const covered = new Set(SAMPLES.map((s) => s.op));
    expect(ops.filter((o) => !covered.has(o))).toEqual([]);
  });

  it.each(SAMPLES.map((s) => [`${s.op} ← ${s.url}`, s] as const))('%s answers as documented', async (_name, s) => {
    const [method, path] = s.op.split(' ');
    const op = doc.paths[path]?.[method.toLowerCase()];
    expect(op, `${s.op} is not documented`).toBeDefined();
    const headers: Record<string, string> = s.keyless ? {} : { 'X-API-Key': KEY };
    if (s.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(sb.url + s.url, {
      method,
      headers,
      body: s.body === undefined ? undefined : JSON.stringify(s.body),
    });
    const status = s.status ?? 200;
    expect(res.status).toBe(status);
    const documented = op.responses[String(status)];
    expect(documented, `status ${status} of ${s.op} is not documented`).toBeDefined();
    const [type, media] = Object.entries(documented.content ?? {})[0] ?? [];
    expect(res.headers.get('content-type') ?? '').toContain(type ?? 'application/json');
    if (type === 'application/json' && (media as any)?.schema) {
      const body = await res.json();
      const validate = ajv.compile((media as any).schema);
      const ok = validate(body);
      expect(ok, JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    }
  });
});

/** The parameter schema of `name` in `METHOD path`. */
const param = (method: string, path: string, name: string) =>
  (doc.paths[path][method].parameters as Array<{ name: string; required: boolean; schema: any }>).find(
    (p) => p.name === name,
  )!;
/** Whether a JSON Schema admits a value (ajv, the document's own dialect). */
const admits = (schema: unknown, value: unknown): boolean => ajv.validate(schema as object, value);

describe('/openapi.json describes what the server accepts (the cases schemathesis found)', () => {
  const get = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(sb.url + url, { ...init, headers: { 'X-API-Key': KEY, ...(init.headers ?? {}) } });
    return { status: res.status, allow: res.headers.get('allow'), body: await res.json().catch(() => undefined) };
  };

  it('is generated from the schemas with z.toJSONSchema: no walk of zod internals in the sandbox or core', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) =>
        statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : [],
      );
    const root = join(__dirname, '../..');
    const walking = [...files(join(root, 'sandbox/src')), ...files(join(root, 'core/src'))].filter((f) =>
      /_zod\s*[.[]\s*['"]?def/.test(readFileSync(f, 'utf8')),
    );
    expect(walking).toEqual([]);
  });

  it('every pattern compiles as JSON Schema reads it (ECMA-262, Unicode mode)', () => {
    const patterns: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === 'pattern' && typeof x === 'string') patterns.push(x);
          else walk(x);
        }
      }
    };
    walk(doc.paths);
    expect(patterns.length).toBeGreaterThan(10);
    for (const p of patterns) expect(() => new RegExp(p, 'u'), p).not.toThrow();
  });

  it('site-score capacity_mw must be greater than 0, in the document as at the server', async () => {
    const cap = param('get', '/api/site-score', 'capacity_mw');
    expect(admits(cap.schema, 0)).toBe(false);
    expect(admits(cap.schema, 0.5)).toBe(true);
    expect((await get('/api/site-score?lat=10&lon=10&capacity_mw=0')).status).toBe(400);
    expect((await get('/api/site-score?lat=10&lon=10&capacity_mw=0.5')).status).toBe(200);
    expect(param('get', '/api/site-score', 'lat').required).toBe(true);
  });

  it('ai-capacity-index horizon is the enum 30, 60, 90', async () => {
    const h = param('get', '/api/v1/ai-capacity-index', 'horizon').schema;
    expect([30, 60, 90].map((v) => admits(h, v))).toEqual([true, true, true]);
    expect(admits(h, 85)).toBe(false);
    expect((await get('/api/v1/ai-capacity-index?horizon=85')).status).toBe(400);
  });

  it('markets/compare requires markets (two to four names)', async () => {
    const m = param('get', '/api/v1/markets/compare', 'markets');
    expect(m.required).toBe(true);
    expect(admits(m.schema, 'dallas')).toBe(false);
    expect(admits(m.schema, 'dallas, nova')).toBe(true);
    expect((await get('/api/v1/markets/compare')).status).toBe(400);
  });

  it('path ids: a positive whole number of at most 12 digits; a large one is a 404, not a 400', async () => {
    for (const [path, name] of [
      ['/api/v1/facilities/detail/{facility_id}', 'facility_id'],
      ['/api/v1/receipts/{run_id}', 'run_id'],
    ] as const) {
      const s = param('get', path, name).schema;
      expect([admits(s, 1), admits(s, 999_999_999_999), admits(s, 0), admits(s, -399), admits(s, 1e12)]).toEqual([
        true,
        true,
        false,
        false,
        false,
      ]);
    }
    expect((await get('/api/v1/facilities/detail/999999999999')).status).toBe(404);
    expect((await get('/api/v1/receipts/-399')).status).toBe(400);
  });

  it('blank values (iso=, limit=, type=) are documented as "not given" and accepted', async () => {
    for (const [path, name] of [
      ['/api/grid/fuel-mix', 'iso'],
      ['/api/news', 'limit'],
      ['/api/v1/onboard', 'type'],
    ] as const) {
      expect(admits(param('get', path, name).schema, '')).toBe(true);
      expect(admits(param('get', path, name).schema, 'zzz')).toBe(false);
    }
    expect((await get('/api/grid/fuel-mix?iso=')).body.iso).toBe('ERCOT');
    expect((await get('/api/news?limit=')).status).toBe(200);
    expect((await get('/api/v1/onboard?type=')).status).toBe(200);
  });

  it('keys/claim documents its body as optional, and answers without one', async () => {
    expect(doc.paths['/api/v1/keys/claim'].post.requestBody.required).toBe(false);
    expect(doc.paths['/api/v1/rank-sites'].post.requestBody.required).toBe(true);
    expect((await get('/api/v1/keys/claim', { method: 'POST' })).status).toBe(200);
  });

  it('an undeclared method on a declared path is 405 with Allow', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const r = await get('/api/v1/interconnection-queue/refined', { method });
      expect([r.status, r.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
    }
  });
});
