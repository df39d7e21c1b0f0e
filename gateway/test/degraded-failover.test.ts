import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logging.js';
import { startGateway, type RunningGateway } from '../src/server.js';
import { freePort, startRedis, type TestRedis } from './support/redis.js';
import { addToken, countingProxy, type CountingProxy } from './support/replicas.js';

/**
 * The shared path failing midway (Redis goes while an upstream request is out) and a gateway that
 * starts without Redis: in-process gateways over a real redis-server and the sandbox.
 */
const ORG_KEY = 'failover-org-canary-key-9d2b';

let sb: RunningSandbox;
let redis: TestRedis;
let proxy: CountingProxy;
let env: Record<string, string>;
let token: string;
const running: RunningGateway[] = [];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis();
  proxy = await countingProxy(sb.url);
  env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: proxy.url,
    DCHUB_UPSTREAM_KEY: ORG_KEY,
    DCHUB_UPSTREAM_TIER: 'pro',
    DCHUB_GATEWAY_PORT: '0',
  };
  token = await addToken(env, 'analyst-f');
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((g) => g.close()));
  await proxy?.close();
  await redis?.close();
  await sb?.close();
});

async function gateway(over: Record<string, string> = {}): Promise<RunningGateway> {
  const g = await startGateway(loadConfig({ ...env, ...over }), { log: createLogger('silent') });
  running.push(g);
  return g;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function untilReady(g: RunningGateway): Promise<void> {
  const until = Date.now() + 10_000;
  while (!g.gateway.sharedUsable && Date.now() < until) await sleep(25);
  expect(g.gateway.sharedUsable).toBe(true);
}

describe('a call whose shared path fails on Redis', () => {
  it('is answered on the local path (never a 500), marked degraded', async () => {
    const g = await gateway();
    await untilReady(g);
    const warm = await fetch(`${g.url}/api/v1/stats`, { headers: { 'X-API-Key': token } });
    expect(warm.status).toBe(200);
    expect(warm.headers.get('x-dchub-notice')).toBeNull();
    sb.ctx.faults.set([{ path_prefix: '/api/v1/markets', kind: 'latency', latency_ms: 800, rate: 1, count: 1 }]);
    const path = '/api/v1/markets?limit=11';
    const pending = fetch(`${g.url}${path}`, { headers: { 'X-API-Key': token } });
    await sleep(300);
    await redis.stop(); // while the upstream request is out: the ledger's correction fails on Redis
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-dchub-notice')).toMatch(/without the team's shared cache \(Redis unreachable\)/);
    const body = (await answer.json()) as { data?: unknown[] };
    expect(Array.isArray(body.data)).toBe(true);
    // answered again by the replica's own client: one duplicate request (the shared one's answer was lost with Redis)
    expect(g.gateway.local.client.requestsSent).toBe(1);
    expect(proxy.seen.filter((s) => s.url === path).length).toBe(2);
    const ready = (await (await fetch(`${g.url}/readyz`)).json()) as { status: string; reason: string };
    expect(ready.status).toBe('degraded');
    expect(ready.reason).toMatch(/Redis/);
    await redis.start();
    await untilReady(g);
  });
});

describe('a gateway that starts without Redis', () => {
  it('is degraded from the start, refuses tokens it cannot check (503), and budgets from the tier', async () => {
    const port = await freePort(); // nothing listens there
    const g = await gateway({ REDIS_URL: `redis://127.0.0.1:${port}`, DCHUB_GATEWAY_DEGRADED_FRACTION: '0.05' });
    const ready = await fetch(`${g.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'degraded' });
    const r = await fetch(`${g.url}/api/v1/stats`, { headers: { 'X-API-Key': token } });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect(await r.json()).toMatchObject({ success: false, error: 'gateway_degraded' });
    // nothing read from Redis yet: 0.05 × the pro tier's assumed 2,000
    expect(r.headers.get('x-dchub-notice')).toMatch(/at most 100 more upstream requests from this replica/);
    const missing = await fetch(`${g.url}/api/v1/stats`);
    expect(missing.status).toBe(401);
  });
});
