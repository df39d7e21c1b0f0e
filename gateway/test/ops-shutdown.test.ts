import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/logging.js';
import { startGateway } from '../src/server.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { addToken, countingProxy, startReplica, type CountingProxy } from './support/replicas.js';

/**
 * Graceful shutdown: on SIGTERM readiness fails first, calls in flight get their answers (within
 * DCHUB_GATEWAY_DRAIN_SECONDS), then connections and Redis close and the process exits 0.
 */
const ORG_KEY = 'shutdown-org-canary-key-31c0';

let sb: RunningSandbox;
let redis: TestRedis;
let env: Record<string, string>;
let token: string;
let proxy: CountingProxy;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis();
  proxy = await countingProxy(sb.url);
  env = { REDIS_URL: redis.url, DCHUB_UPSTREAM_URL: proxy.url, DCHUB_UPSTREAM_KEY: ORG_KEY };
  token = await addToken(env, 'analyst-d');
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await redis?.close();
  await sb?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Resolves once the gateway's request for `path` has reached the upstream (the call is in flight). */
async function upstreamAsked(path: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!proxy.seen.some((s) => s.url === path)) {
    if (Date.now() > until) throw new Error(`${path} never reached the upstream`);
    await sleep(10);
  }
}
const slow = (path: string, ms: number) =>
  sb.ctx.faults.set([{ path_prefix: path, kind: 'latency', latency_ms: ms, rate: 1, count: 1 }]);

function logLines(out: string): { msg: string; [k: string]: unknown }[] {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string });
}

describe('SIGTERM', () => {
  it('lets a slow call in flight finish, then exits 0', async () => {
    const replica = await startReplica({ ...env, DCHUB_GATEWAY_DRAIN_SECONDS: '10' });
    slow('/api/v1/markets', 1_500);
    const started = Date.now();
    const pending = fetch(`${replica.url}/api/v1/markets?limit=13`, { headers: { 'X-API-Key': token } });
    await upstreamAsked('/api/v1/markets?limit=13');
    const exited = replica.stop();
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    const msgs = logLines(replica.output()).map((l) => l.msg);
    const order = ['signal received', 'stopping: readiness fails, draining calls', 'request', 'stopped'];
    const at = order.map((m) => msgs.lastIndexOf(m));
    expect(at.every((v, i) => v >= 0 && (i === 0 || v > at[i - 1]))).toBe(true);
    expect(logLines(replica.output()).find((l) => l.msg === 'stopped')).toMatchObject({ drained: true });
    // a new connection after the signal is refused
    await expect(fetch(`${replica.url}/healthz`)).rejects.toThrow();
  });

  it('cuts a call that outlives the drain time, and still exits 0', async () => {
    const replica = await startReplica({ ...env, DCHUB_GATEWAY_DRAIN_SECONDS: '1' });
    slow('/api/v1/markets', 5_000);
    const pending = fetch(`${replica.url}/api/v1/markets?limit=14`, { headers: { 'X-API-Key': token } }).then(
      (r) => r.status,
      () => 'cut',
    );
    await upstreamAsked('/api/v1/markets?limit=14');
    expect(await replica.stop()).toBe(0);
    // cut, not answered: the stop did not wait for the 5 s call (no wall-clock bound: CI machines are loaded)
    expect(await pending).toBe('cut');
    expect(logLines(replica.output()).find((l) => l.msg === 'stopped')).toMatchObject({ drained: false });
    sb.ctx.faults.clear();
  });
});

describe('readiness while stopping', () => {
  it('fails first (503 stopping) while the calls in flight drain', async () => {
    slow('/api/v1/markets', 800);
    const gw = await startGateway(loadConfig({ ...env, DCHUB_GATEWAY_PORT: '0' }), { log: createLogger('silent') });
    const pending = fetch(`${gw.url}/api/v1/markets?limit=15`, { headers: { 'X-API-Key': token } });
    await upstreamAsked('/api/v1/markets?limit=15');
    const closing = gw.close();
    // the listener is closed: ask the same replica's app directly, as a load balancer's check would have
    const ready = await createApp(gw.gateway).request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'stopping' });
    expect((await pending).status).toBe(200);
    await closing;
  });
});
