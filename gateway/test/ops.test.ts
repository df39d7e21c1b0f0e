import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { addToken, countingProxy, startReplica, type CountingProxy, type Replica } from './support/replicas.js';

/**
 * Operations of a replica process: Prometheus /metrics, one JSON log line per request, and a canary
 * organisation key (and the caller's token) found in no line of output and no metric.
 */
const ORG_KEY = 'ops-canary-org-key-b7e41f';

let sb: RunningSandbox;
let redis: TestRedis;
let proxy: CountingProxy;
let replica: Replica;
let token: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis();
  proxy = await countingProxy(sb.url);
  const env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: proxy.url,
    DCHUB_UPSTREAM_KEY: ORG_KEY,
    DCHUB_UPSTREAM_TIER: 'pro',
    DCHUB_GATEWAY_LOG_LEVEL: 'debug',
  };
  token = await addToken(env, 'analyst-m', 50);
  replica = await startReplica(env);
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const r = (await (await fetch(`${replica.url}/readyz`)).json()) as { status: string };
    if (r.status === 'ready') break;
    await new Promise((res) => setTimeout(res, 50));
  }
}, 60_000);

afterAll(async () => {
  await replica?.stop();
  await proxy?.close();
  await redis?.close();
  await sb?.close();
});

const ask = (path: string, headers: Record<string, string> = { 'X-API-Key': token }) =>
  fetch(`${replica.url}${path}`, { headers });

/** The replica's JSON log lines (every line of its output must be one). */
function logLines(): Record<string, unknown>[] {
  return replica
    .output()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('metrics', () => {
  it('count requests by route template and cache status, upstream requests, use per caller, latency', async () => {
    expect((await ask('/api/v1/markets/ashburn')).status).toBeLessThan(500);
    expect((await ask('/api/v1/markets?limit=9')).headers.get('x-dchub-cache')).toBe('miss');
    expect((await ask('/api/v1/markets?limit=9')).headers.get('x-dchub-cache')).toBe('hit');
    const res = await fetch(`${replica.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    const line = (re: RegExp) => text.split('\n').find((l) => re.test(l));
    const value = (re: RegExp) => Number(line(re)?.split(' ').pop());
    expect(
      value(/^dchub_gateway_requests_total\{route="\/api\/v1\/markets",method="GET",status="200",cache="miss"}/),
    ).toBe(1);
    expect(
      value(/^dchub_gateway_requests_total\{route="\/api\/v1\/markets",method="GET",status="200",cache="hit"}/),
    ).toBe(1);
    expect(line(/^dchub_gateway_requests_total\{route="\/api\/v1\/markets\/:market_name"/)).toBeDefined();
    expect(value(/^dchub_gateway_upstream_requests_total\{mode="shared",status="200"}/)).toBeGreaterThanOrEqual(1);
    expect(value(/^dchub_gateway_caller_requests_total\{caller="analyst-m"}/)).toBe(3);
    expect(value(/^dchub_gateway_caller_upstream_requests_total\{caller="analyst-m"}/)).toBeGreaterThanOrEqual(1);
    expect(
      line(/^dchub_gateway_request_duration_seconds_bucket\{le="0.05",route="\/api\/v1\/markets",cache="hit"}/),
    ).toBeDefined();
    expect(line(/^dchub_gateway_upstream_duration_seconds_count\{mode="shared"}/)).toBeDefined();
    // the team's allowance, read from Redis when scraped: the pro plan's 2,000 less what was spent
    expect(value(/^dchub_gateway_team_allowance_limit\{ledger="rest"}/)).toBe(2000);
    const left = value(/^dchub_gateway_team_allowance_remaining\{ledger="rest"}/);
    expect(left).toBeGreaterThan(1990);
    expect(left).toBeLessThan(2000);
    expect(value(/^dchub_gateway_degraded /)).toBe(0);
    expect(line(/^dchub_gateway_process_cpu_user_seconds_total /)).toBeDefined(); // default metrics, prefixed
    expect(text).not.toContain(ORG_KEY);
    expect(text).not.toContain(token);
    expect(text).not.toContain('limit=9');
    expect(text).not.toContain('ashburn');
  });

  it('answer only this host, through no proxy, when no metrics token is set', async () => {
    const viaProxy = await fetch(`${replica.url}/metrics`, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
    expect(viaProxy.status).toBe(403);
    expect(await viaProxy.json()).toMatchObject({ error: 'forbidden' });
  });
});

describe('logs', () => {
  it('are one JSON line per request: method, route, status, cache status, caller, ms', async () => {
    await ask('/api/v1/stats');
    const lines = logLines();
    const req = lines.filter((l) => l.msg === 'request' && l.route === '/api/v1/stats');
    expect(req).toHaveLength(1);
    expect(req[0]).toMatchObject({ method: 'GET', status: 200, cache: 'miss', caller: 'analyst-m', level: 'info' });
    expect(typeof req[0].ms).toBe('number');
    expect(lines.some((l) => l.msg === 'listening')).toBe(true);
    expect(lines.some((l) => l.msg === 'Redis is ready')).toBe(true);
  });

  it('never carry the organisation key, a token, a query or a header value', async () => {
    const canaryToken = 'dchg_canary-token-never-logged-0000000000000000';
    await ask(`/api/v1/markets?limit=2&api_key=${token}`, { Authorization: `Bearer ${token}`, Cookie: `s=${token}` });
    await ask('/api/v1/stats', { 'X-API-Key': canaryToken });
    await ask('/api/v1/stats', { Authorization: `Bearer ${ORG_KEY}` });
    await fetch(`${replica.url}/api/v1/rank-sites`, {
      method: 'POST',
      headers: { 'X-API-Key': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: token }),
    });
    const out = replica.output();
    for (const secret of [ORG_KEY, token, canaryToken, 'api_key=']) expect(out).not.toContain(secret);
    const refused = logLines().filter((l) => l.msg === 'request' && l.status === 401);
    expect(refused.length).toBe(2);
    expect(refused.every((l) => l.caller === undefined)).toBe(true);
  });
});
