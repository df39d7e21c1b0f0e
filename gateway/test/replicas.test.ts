import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { addToken, countingProxy, startReplicas, type CountingProxy, type Replica } from './support/replicas.js';

/**
 * Issue 25: one question is one upstream request for the whole team, whichever replica is asked.
 * Three gateway processes over one real redis-server, the sandbox behind a counting proxy.
 */
const ORG_KEY = 'replicas-org-pro-key-0001';

let sb: RunningSandbox;
let redis: TestRedis;
let proxy: CountingProxy;
let replicas: Replica[];
let env: Record<string, string>;
let token: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis();
  proxy = await countingProxy(sb.url);
  env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: proxy.url,
    DCHUB_UPSTREAM_KEY: ORG_KEY,
    DCHUB_UPSTREAM_TIER: 'pro',
    DCHUB_GATEWAY_LOG_LEVEL: 'info',
  };
  token = await addToken(env, 'analyst-a');
  replicas = await startReplicas(3, env);
}, 60_000);

afterAll(async () => {
  await Promise.all((replicas ?? []).map((r) => r.stop()));
  await proxy?.close();
  await redis?.close();
  await sb?.close();
});

const ask = (r: Replica, path: string) => fetch(`${r.url}${path}`, { headers: { 'X-API-Key': token } });
const upstream = (path: string) => proxy.seen.filter((s) => s.url === path).length;

describe('one question, one upstream request, across replicas', () => {
  it('the same question through two replicas', async () => {
    const path = '/api/v1/markets?limit=5';
    const first = await ask(replicas[0], path);
    const second = await ask(replicas[1], path);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.headers.get('x-dchub-cache')).toBe('miss');
    expect(second.headers.get('x-dchub-cache')).toBe('hit');
    expect(await second.text()).toBe(await first.text());
    expect(upstream(path)).toBe(1);
  });

  it('30 concurrent identical questions spread over the replicas', async () => {
    const path = '/api/v1/markets?limit=7';
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => ask(replicas[i % 3], path)));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    const bodies = new Set(await Promise.all(answers.map((a) => a.text())));
    expect(bodies.size).toBe(1);
    expect(upstream(path)).toBe(1);
  });

  it('the organisation key goes upstream, the gateway token never does', () => {
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((s) => s.key === ORG_KEY)).toBe(true);
    expect(proxy.seen.some((s) => s.url.includes(token))).toBe(false);
  });
});
