import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DchubClient, fetchMeta, readNews } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logging.js';
import { startGateway, type RunningGateway } from '../src/server.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { addToken } from './support/replicas.js';

/**
 * Issue 25, honest answers: when the service cannot be asked, the gateway serves the team's cached
 * answer stale, with its age and why (core's rule), and a host reading it through the gateway says
 * so as it says it of its own stale answers. The gateway's clock is moved past the answer's lifetime.
 */
const ORG_KEY = 'stale-org-canary-key-8d21';
const NEWS = '/api/v1/news?limit=3';
const MINUTE = 60_000;

let sb: RunningSandbox;
let redis: TestRedis;
let gw: RunningGateway;
let token: string;
let clock = Date.parse('2026-11-21T12:00:00Z');

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', keys: `pro=${ORG_KEY}`, controls: true });
  redis = await startRedis();
  const env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: sb.url,
    DCHUB_UPSTREAM_KEY: ORG_KEY,
    DCHUB_UPSTREAM_TIMEOUT: '5',
  };
  token = await addToken(env, 'analyst-s');
  gw = await startGateway(loadConfig({ ...env, DCHUB_GATEWAY_PORT: '0' }), {
    now: () => clock,
    log: createLogger('silent'),
  });
  // The first answers wait for Redis: until it is ready the replica is degraded by design.
  for (let i = 0; i < 100 && gw.gateway.redisProblem; i++) await new Promise((r) => setTimeout(r, 50));
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await redis?.close();
  await sb?.close();
});

const ask = (path: string) => fetch(`${gw.url}${path}`, { headers: { 'X-API-Key': token } });

describe('the service down: the team’s answer served stale, with its age and why', () => {
  it('a fresh answer, then the same answer stale once it expired and the service fails', async () => {
    const first = await ask(NEWS);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-dchub-cache')).toBe('miss');
    const body = await first.text();

    sb.ctx.faults.set([{ path_prefix: '/api/v1/news', kind: 'status', status: 503, rate: 1 }]);
    clock += 12 * MINUTE; // news lives 5 minutes
    const stale = await ask(NEWS);
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-dchub-cache')).toBe('stale');
    const facts = JSON.parse(stale.headers.get('x-dchub-answer') ?? '{}') as Record<string, unknown>;
    expect(facts).toMatchObject({ from_cache: true, stale: true, reason: 'service error' });
    expect(facts.age_ms).toBe(12 * MINUTE);
    expect(await stale.text()).toBe(body);
  });

  it('a host reading through the gateway shows it stale, with the age and the reason', async () => {
    const host = new DchubClient({ baseUrl: gw.url, apiKey: token, retries: 0, now: () => clock });
    const news = await host.getJson('/api/v1/news', readNews, new URLSearchParams({ limit: '3' }));
    const meta = fetchMeta(news);
    expect(meta).toMatchObject({ stale: true, fromCache: true, reason: 'service error' });
    expect(meta?.ageMs).toBe(12 * MINUTE);
    sb.ctx.faults.clear();
  });
});
