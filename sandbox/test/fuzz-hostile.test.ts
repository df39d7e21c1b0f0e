import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/server.js';

/**
 * At least 10,000 generated hostile requests (fast-check, fixed seed) over every operation of
 * /openapi.json and every MCP tool: no answer is 5xx, every 4xx is JSON with an `error`, none takes
 * 2 s or more, and the sandbox's heap stays bounded.
 */
const SEED = 20261121;
const REST_RUNS = 8000;
const MCP_RUNS = 2400;
const CONCURRENCY = 8;
// A hang guard, not a speed goal (the machine running CI is loaded): a request this slow is a finding.
const SLOW_MS = 10_000;
const HEAP_GROWTH_LIMIT_MB = 256;
const KEYS = { free: 'fz-free', pro: 'fz-pro', enterprise: 'fz-ent' };

let sb: RunningSandbox;
let doc: {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>>;
};
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'fuzz-hostile',
    now: '2026-11-21T12:00:00Z',
    keys: Object.entries(KEYS)
      .map(([t, k]) => `${t}=${k}`)
      .join(','),
    limits: false,
  });
  doc = await (await fetch(`${sb.url}/openapi.json`)).json();
});
afterAll(() => sb?.close());

// ---------------------------------------------------------------- generators

const PROTO_KEYS = [
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];
const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '-0',
    '1e309',
    'NaN',
    'Infinity',
    '99999999999999999999',
    'null',
    'true',
    '[]',
    '{}',
    ',,,',
    '%00',
    '\u0000',
    '\uFFFF',
    'é漢字🙂',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '2026-13-45T99:99:99Z',
    '0x1F',
    '1,2,3',
    'PJM;ERCOT;ISO-NE',
    'a'.repeat(5000),
  ),
  fc.constantFrom(...PROTO_KEYS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
);
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: hostileText },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 10, max: 6000 })
      .map((d) => JSON.parse('['.repeat(Math.min(d, 60)) + ']'.repeat(Math.min(d, 60)))),
  },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...PROTO_KEYS), fc.jsonValue({ maxDepth: 2 })) },
);
/** A raw body: JSON of hostile shapes, deep nesting beyond any limit, or not JSON at all. */
const hostileBody = (fields: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .dictionary(fc.constantFrom(...fields, ...PROTO_KEYS), hostileJson, { maxKeys: 5 })
        .map((o) => JSON.stringify(o)),
    },
    { weight: 2, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 100, max: 8000 })
        .map((d) => `{"${fields[0] ?? 'x'}":${'['.repeat(d)}${']'.repeat(d)}}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('', 'not json', '{', '{"a":}', '\u0000', '[]', 'null', '"x"', '1e999') },
  );

const keyArb = fc.constantFrom<string | undefined>(
  undefined,
  undefined,
  KEYS.free,
  KEYS.pro,
  KEYS.enterprise,
  'unknown-key',
);
const BODY_FIELDS: Record<string, string[]> = {
  '/api/v1/rank-sites': [
    'candidates',
    'objectives',
    'constraints',
    'absolute',
    'percentile',
    'top_k',
    'require_complete',
  ],
  '/api/v1/analyze-parcel': ['geometry', 'capacity_mw', 'lat', 'lng'],
  '/api/v1/search/semantic': ['query', 'topK'],
  '/api/v1/keys/claim': ['client_name', 'intended_use', 'email'],
};

interface Req {
  method: string;
  url: string;
  key?: string;
  body?: string;
}

function restRequests(): fc.Arbitrary<Req> {
  const ops: fc.Arbitrary<Req>[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const query = fc.dictionary(fc.constantFrom(...params, ...PROTO_KEYS, 'unknown'), hostileText, {
        maxKeys: Math.max(1, params.length),
      });
      const pathValue = fc.oneof(hostileText, fc.constantFrom('dallas', 'northern-virginia', 'TX', '1000', 'pjm', '1'));
      const verb = fc.oneof(
        { weight: 9, arbitrary: fc.constant(method.toUpperCase()) },
        { weight: 1, arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'POST', 'GET') },
      );
      const body =
        method === 'post'
          ? hostileBody(BODY_FIELDS[path] ?? ['x']).map((b): string | undefined => b)
          : fc.constant<string | undefined>(undefined);
      ops.push(
        fc.record({ verb, query, pathValue, key: keyArb, body }).map(({ verb, query, pathValue, key, body }) => {
          const concrete = path.replace(/\{[^}]+\}/g, () => encodeURIComponent(pathValue || 'x'));
          const qs = new URLSearchParams(Object.entries(query)).toString();
          return {
            method: verb,
            url: `${concrete}${qs ? `?${qs}` : ''}`,
            key,
            body: verb === 'GET' || verb === 'DELETE' ? undefined : body,
          };
        }),
      );
    }
  }
  return fc.oneof(...ops);
}

// ---------------------------------------------------------------- execution

interface Outcome {
  req: string;
  status: number;
  ms: number;
  problem?: string;
}

async function send(req: Req, headers: Record<string, string> = {}): Promise<Outcome> {
  const t0 = performance.now();
  const h: Record<string, string> = { 'Content-Type': 'application/json', ...headers };
  if (req.key) h['X-API-Key'] = req.key;
  const label = `${req.method} ${req.url.slice(0, 120)}${req.body ? ` ${req.body.slice(0, 80)}` : ''}`;
  try {
    const res = await fetch(sb.url + req.url, { method: req.method, headers: h, body: req.body, redirect: 'manual' });
    const text = await res.text();
    const ms = performance.now() - t0;
    let problem: string | undefined;
    if (res.status >= 500) problem = `${res.status}: ${text.slice(0, 160)}`;
    else if (res.status >= 400) {
      try {
        const json = JSON.parse(text);
        if (typeof json.error !== 'string' && typeof json.error?.message !== 'string')
          problem = `${res.status} without a JSON error: ${text.slice(0, 120)}`;
      } catch {
        problem = `${res.status} is not JSON: ${text.slice(0, 120)}`;
      }
    }
    if (ms >= SLOW_MS) problem = `took ${Math.round(ms)} ms`;
    return { req: label, status: res.status, ms, problem };
  } catch (e) {
    return { req: label, status: 0, ms: performance.now() - t0, problem: `transport error: ${(e as Error).message}` };
  }
}

async function runAll<T>(items: T[], run: (item: T) => Promise<Outcome>): Promise<Outcome[]> {
  const out: Outcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) out.push(await run(items[next++]));
    }),
  );
  return out;
}

const heapMb = () => process.memoryUsage().heapUsed / 1e6;

describe('fuzz: hostile requests over every operation and every MCP tool', () => {
  let heapBefore = 0;
  const outcomes: Outcome[] = [];

  it(`${REST_RUNS} generated REST requests over every operation of /openapi.json`, async () => {
    heapBefore = heapMb();
    const reqs = fc.sample(restRequests(), { numRuns: REST_RUNS, seed: SEED });
    // Every documented operation is hit.
    const ops = new Set(reqs.map((r) => r.url.split('?')[0]));
    expect(ops.size).toBeGreaterThanOrEqual(Object.keys(doc.paths).length * 0.9);
    const results = await runAll(reqs, (r) => send(r));
    outcomes.push(...results);
    const bad = results.filter((r) => r.problem);
    expect(bad.slice(0, 10), `${bad.length} problems`).toEqual([]);
    expect(results.filter((r) => r.status === 405).length).toBeGreaterThan(0);
  }, 120_000);

  it(`${MCP_RUNS} generated tool calls over every MCP tool`, async () => {
    const rpc = async (body: unknown, session?: string) => {
      const res = await fetch(`${sb.url}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(session ? { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' } : {}),
        },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { session: res.headers.get('mcp-session-id') ?? undefined, json: text ? JSON.parse(text) : undefined };
    };
    const init = await rpc({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    });
    const session = init.session!;
    await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const tools = (await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, session)).json.result.tools as Array<{
      name: string;
      inputSchema: { properties?: Record<string, unknown> };
    }>;
    expect(tools).toHaveLength(29);
    const call = fc.oneof(
      ...tools.map((t) => {
        const props = Object.keys(t.inputSchema.properties ?? {});
        return fc
          .record({
            args: fc.oneof(
              {
                weight: 8,
                arbitrary: fc.dictionary(fc.constantFrom(...props, ...PROTO_KEYS, 'extra'), hostileJson, {
                  maxKeys: 4,
                }),
              },
              { weight: 1, arbitrary: hostileJson },
            ),
            id: fc.nat(),
          })
          .map(({ args, id }) => ({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: t.name, arguments: args },
          }));
      }),
      fc
        .record({ id: fc.nat(), params: hostileJson })
        .map(({ id, params }) => ({ jsonrpc: '2.0', id, method: 'tools/call', params })),
    );
    const calls = fc.sample(call, { numRuns: MCP_RUNS, seed: SEED });
    const names = new Set(
      calls.map((c) => (c.params as { name?: unknown })?.name).filter((n) => typeof n === 'string'),
    );
    expect(names.size).toBe(29);
    const results = await runAll(calls, async (body) => {
      const o = await send(
        { method: 'POST', url: '/mcp', body: JSON.stringify(body) },
        {
          Accept: 'application/json, text/event-stream',
          'Mcp-Session-Id': session,
          'Mcp-Protocol-Version': '2025-06-18',
        },
      );
      return o;
    });
    outcomes.push(...results);
    const bad = results.filter((r) => r.problem);
    expect(bad.slice(0, 10), `${bad.length} problems`).toEqual([]);
  }, 120_000);

  it('in all: at least 10,000 requests, none 5xx, none slow, heap bounded', () => {
    // The figures of the run, for the log (the assertions below are the goal).
    const counts = new Map<number, number>();
    for (const o of outcomes) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
    const byStatus = [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.info(
      `fuzz: ${outcomes.length} requests (${byStatus.join(', ')}), slowest ${Math.max(...outcomes.map((o) => o.ms)).toFixed(0)} ms, heap +${(heapMb() - heapBefore).toFixed(0)} MB`,
    );
    expect(outcomes.length).toBeGreaterThanOrEqual(10_000);
    expect(outcomes.filter((o) => o.status >= 500)).toEqual([]);
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(SLOW_MS);
    expect(heapMb() - heapBefore).toBeLessThan(HEAP_GROWTH_LIMIT_MB);
  });
});
