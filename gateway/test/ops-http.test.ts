import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logging.js';
import { startGateway, type RunningGateway } from '../src/server.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { addToken } from './support/replicas.js';

/**
 * The HTTP edges of one in-process gateway: the CORS allow-list (the add-in's origin served, any
 * other refused, preflights), the request body limit (a 413 in JSON, with or without a length),
 * and /metrics behind a metrics token.
 */
const ORG_KEY = 'opshttp-org-canary-key-44ad';
const ADDIN = 'https://addin.example.com';
const METRICS_TOKEN = 'metrics-scrape-token-0123456789';

let sb: RunningSandbox;
let redis: TestRedis;
let gw: RunningGateway;
let token: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis();
  const env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: sb.url,
    DCHUB_UPSTREAM_KEY: ORG_KEY,
    DCHUB_GATEWAY_PORT: '0',
    DCHUB_GATEWAY_CORS_ORIGINS: `${ADDIN}, https://jupyter.example.org`,
    DCHUB_GATEWAY_BODY_LIMIT: '2048',
    DCHUB_GATEWAY_METRICS_TOKEN: METRICS_TOKEN,
  };
  token = await addToken(env, 'analyst-h');
  gw = await startGateway(loadConfig(env), { log: createLogger('silent') });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await redis?.close();
  await sb?.close();
});

describe('CORS allow-list', () => {
  it("answers the add-in's origin, with the headers a host reads exposed", async () => {
    const r = await fetch(`${gw.url}/api/v1/stats`, { headers: { Origin: ADDIN, 'X-API-Key': token } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(ADDIN);
    expect(r.headers.get('access-control-expose-headers')).toMatch(/X-DCHub-Cache/);
    expect(r.headers.get('access-control-expose-headers')).toMatch(/X-DCHub-Notice/);
    expect(r.headers.get('vary')).toMatch(/Origin/i);
  });

  it('preflights the allowed origin (204, methods, the key header) and not another', async () => {
    const preflight = (origin: string) =>
      fetch(`${gw.url}/api/v1/rank-sites`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'x-api-key, content-type',
        },
      });
    const ok = await preflight(ADDIN);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ADDIN);
    expect(ok.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/X-API-Key/i);
    const refused = await preflight('https://evil.example.net');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives a refused origin no Access-Control-Allow-Origin (the browser keeps the answer from it)', async () => {
    const r = await fetch(`${gw.url}/api/v1/stats`, {
      headers: { Origin: 'https://evil.example.net', 'X-API-Key': token },
    });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('request body limit', () => {
  const big = JSON.stringify({ markets: ['x'.repeat(5000)] });

  it('refuses a body past the limit with a 413 in JSON, before authentication reads anything', async () => {
    const r = await fetch(`${gw.url}/api/v1/rank-sites`, {
      method: 'POST',
      headers: { 'X-API-Key': token, 'Content-Type': 'application/json' },
      body: big,
    });
    expect(r.status).toBe(413);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await r.json()) as { error: string }).error).toMatch(/larger than 2048 bytes/);
  });

  it('counts a chunked body (no Content-Length) too', async () => {
    const chunks = [big.slice(0, 3000), big.slice(3000)];
    const body = new ReadableStream({
      pull(c) {
        const next = chunks.shift();
        if (next === undefined) c.close();
        else c.enqueue(new TextEncoder().encode(next));
      },
    });
    const r = await fetch(`${gw.url}/api/v1/rank-sites`, {
      method: 'POST',
      headers: { 'X-API-Key': token, 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(r.status).toBe(413);
  });

  it('lets a body within the limit through', async () => {
    const r = await fetch(`${gw.url}/api/v1/rank-sites`, {
      method: 'POST',
      headers: { 'X-API-Key': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ markets: ['ashburn'] }),
    });
    expect(r.status).not.toBe(413);
  });
});

describe('/metrics with a metrics token', () => {
  it('answers the token as a bearer, from anywhere; refuses without it', async () => {
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(403);
    const wrong = await fetch(`${gw.url}/metrics`, { headers: { Authorization: 'Bearer not-the-metrics-token' } });
    expect(wrong.status).toBe(403);
    const r = await fetch(`${gw.url}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}`, 'X-Forwarded-For': '203.0.113.9' },
    });
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/^dchub_gateway_requests_total/m);
  });
});
