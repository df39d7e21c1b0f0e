import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonTooDeep } from '../src/body.js';
import { MAX_SESSIONS, SESSION_IDLE_MS } from '../src/mcp/server.js';
import { startSandbox, type RunningSandbox } from '../src/server.js';

/** Bounded work and hostile input (issue 12): every refusal is a JSON 4xx naming the limit. */
let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'bounds',
    now: '2026-11-21T12:00:00Z',
    keys: 'enterprise=b-ent',
    controls: true,
    limits: false,
  });
});
afterAll(() => sb?.close());

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('prototype keys are never lookups', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'sort=%s on /api/v1/dcpi/scores is a 400 naming sort',
    async (sort) => {
      const res = await fetch(`${sb.url}/api/v1/dcpi/scores?sort=${sort}`);
      expect(res.status).toBe(400);
      expect((await res.json()).param).toBe('sort');
    },
  );

  it('market names such as constructor are unknown markets, not Object.prototype', async () => {
    for (const path of [
      '/api/v1/markets/constructor',
      '/api/v1/dcpi/scores/constructor',
      '/api/v1/market-brief/constructor',
    ]) {
      expect((await fetch(sb.url + path)).status, path).toBe(404);
    }
  });

  it('a candidate field named constructor carries no value', async () => {
    const res = await fetch(
      `${sb.url}/api/v1/rank-sites`,
      json({
        candidates: [
          { id: 'a', x: 1 },
          { id: 'b', x: 2 },
        ],
        objectives: { constructor: 1, x: 1 },
      }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.objective_status.find((o: { objective: string }) => o.objective === 'constructor').status).toBe(
      'unavailable',
    );
  });

  it('an object whose own toString is not a function is a 400, not a 500', async () => {
    const res = await fetch(`${sb.url}/api/v1/analyze-parcel`, json('{"capacity_mw":{"toString":1,"valueOf":2}}'));
    expect(res.status).toBe(400);
    expect(typeof (await res.json()).error).toBe('string');
  });
});

describe('JSON nesting depth', () => {
  it('jsonTooDeep counts brackets outside strings only', () => {
    expect(jsonTooDeep(deep(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(deep(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ s: '['.repeat(1000) }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ s: 'a\\"[[[' }))).toBe(false);
  });

  it.each(['/api/v1/analyze-parcel', '/api/v1/rank-sites'])(
    '%s: 5,000-deep bodies answer 400 naming the limit',
    async (path) => {
      const res = await fetch(sb.url + path, json(`{"geometry":${deep(5000)},"candidates":${deep(5000)}}`));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ ok: false, _entity: 'error', param: 'body' });
      expect(body.error).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    },
  );
});

describe('rank-sites cost cap', () => {
  it('1,000 candidates × 40,000 objectives (keyless) is refused with 400 naming the limit, and health answers meanwhile', async () => {
    const objectives = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`f${i}`, 1]));
    const candidates = Array.from({ length: 1000 }, (_, i) => ({ id: i, f0: i }));
    const t0 = performance.now();
    const [res, health] = await Promise.all([
      fetch(`${sb.url}/api/v1/rank-sites`, json({ candidates, objectives })),
      fetch(`${sb.url}/api/health`),
    ]);
    const ms = performance.now() - t0;
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.param).toBe('objectives');
    expect(body.error).toMatch(/at most 100 .*the limit/);
    expect(health.status).toBe(200);
    expect(ms).toBeLessThan(10_000); // a hang guard; the refusal costs no ranking (400 above)
  });

  it('candidates × (objectives + constraints) over 100,000 is refused naming the product', async () => {
    const objectives = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, 1]));
    const constraints = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`c${i}`, { min: 0 }]));
    const candidates = Array.from({ length: 1000 }, (_, i) => ({ id: i }));
    const res = await fetch(`${sb.url}/api/v1/rank-sites`, json({ candidates, objectives, constraints }));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(
      /^candidates: 1000 candidates × 110 objectives and constraints = 110000; at most 100000/,
    );
  });
});

describe('bodies are refused while they stream in', () => {
  it('a declared Content-Length over 1 MB is a 413 before the body is read', async () => {
    const res = await fetch(`${sb.url}/api/v1/rank-sites`, json('x'.repeat(1_200_000)));
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/^body: must be at most 1000000 bytes/);
  });

  it('a chunked body without a length is cut off at 1 MB (413), the rest never read', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctl) {
        pulled++;
        if (pulled > 200) ctl.close();
        else ctl.enqueue(new Uint8Array(100_000).fill(32));
      },
    });
    const res = await fetch(`${sb.url}/api/v1/analyze-parcel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    // 20 MB offered; the server stopped reading soon after the first megabyte.
    expect(pulled).toBeLessThan(200);
  });
});

describe('/mcp bounds', () => {
  const rpc = (body: unknown, session?: string) =>
    fetch(`${sb.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...(session ? { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const init = (id = 1) =>
    rpc({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bounds', version: '1' } },
    });

  it('a body over 1 MB is a 413 JSON-RPC error', async () => {
    const res = await rpc('x'.repeat(30_000_000));
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ code: -32600 });
  });

  it('malformed tools/call params answer -32602 in one line', async () => {
    const session = (await init()).headers.get('mcp-session-id')!;
    for (const params of [
      { name: 'get_news', arguments: 'x' },
      { name: 5 },
      {},
      { name: 'get_news', arguments: [1] },
      { name: 'get_news', arguments: null },
    ]) {
      const res = await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }, session);
      const body = await res.json();
      expect(body.error.code, JSON.stringify(params)).toBe(-32602);
      expect(body.error.message).not.toContain('\n');
      expect(body.id).toBe(7);
    }
    const unknown = await (
      await rpc(
        { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
        session,
      )
    ).json();
    expect(unknown.error.code).toBe(-32602);
    expect(unknown.error.message).toMatch(/Unknown tool: no_such_tool/);
    expect(unknown.error.message).not.toContain('\n');
  });

  it(`open sessions are capped at ${MAX_SESSIONS} (429), and idle ones expire after ${SESSION_IDLE_MS / 60_000} minutes`, async () => {
    const opened: string[] = [];
    for (let i = 0; opened.length < MAX_SESSIONS; i++) {
      const res = await init(i);
      if (res.status === 429) break;
      expect(res.status).toBe(200);
      opened.push(res.headers.get('mcp-session-id')!);
      await res.text();
    }
    const refused = await init(999);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(SESSION_IDLE_MS / 1000));
    expect((await refused.json()).error.message).toMatch(/Too many open sessions/);
    // Past the idle expiry, the old sessions go and a new one opens.
    await fetch(`${sb.url}/_sandbox/clock`, json({ advance_seconds: SESSION_IDLE_MS / 1000 + 1 }));
    expect((await init(1000)).status).toBe(200);
    const stale = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, opened[0]);
    expect(stale.status).toBe(404);
  });
});

describe('HTTP edges', () => {
  it('a fault rule on a request that would answer 304 leaves the 304 alone', async () => {
    const first = await fetch(`${sb.url}/api/v1/dcpi/scores/dallas`);
    const etag = first.headers.get('etag')!;
    await first.text();
    for (const kind of ['schema_drift', 'malformed_json', 'truncate']) {
      await fetch(`${sb.url}/_sandbox/faults`, json([{ path_prefix: '/api/v1/dcpi', kind }]));
      const res = await fetch(`${sb.url}/api/v1/dcpi/scores/dallas`, { headers: { 'If-None-Match': etag } });
      expect(res.status, kind).toBe(304);
    }
    await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
  });

  it.each([20_000, 100_000])('a URL of %i bytes answers a JSON 414', async (n) => {
    const res = await fetch(`${sb.url}/api/v1/stats?x=${'a'.repeat(n)}`);
    expect(res.status).toBe(414);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect((await res.json()).error).toMatch(/^url: the URL is longer than 16384 bytes/);
  });

  it('bytes that are not HTTP answer a 400 with a JSON error, not an empty reset', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const sock = connect(sb.port, '127.0.0.1', () => sock.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      sock.on('data', (d: Buffer) => (text += d.toString('utf8')));
      sock.on('end', () => resolve(text));
      sock.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).error).toMatch(/not valid HTTP/);
  });

  it('undeclared methods on declared paths answer 405 with Allow', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/api/v1/stats', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/api/v1/markets/dallas', 'GET, HEAD, OPTIONS'],
      ['GET', '/api/v1/rank-sites', 'OPTIONS, POST'],
      ['PATCH', '/mcp', 'DELETE, GET, HEAD, OPTIONS, POST'],
    ] as const) {
      const res = await fetch(sb.url + path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect((await res.json()).error).toMatch(/^method_not_allowed/);
    }
    expect((await fetch(`${sb.url}/api/v1/nothing-here`, { method: 'PUT' })).status).toBe(404);
  });
});
