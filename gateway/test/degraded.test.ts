import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { callerLedgerId } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { hashToken } from '../src/tokens.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { addToken, countingProxy, startReplicas, type CountingProxy, type Replica } from './support/replicas.js';

/**
 * Issue 25, "when Redis is down": two gateway processes over one real redis-server, which is
 * stopped mid-load and started again. Redis keeps an append-only file here (as the compose file's
 * does), so that what it held is there when it comes back and the write-back can be checked.
 */
const ORG_KEY = 'degraded-org-canary-key-5c1e';
const FRACTION = 0.005;
const NS = 'dchub-gw:';

let sb: RunningSandbox;
let redis: TestRedis;
let proxy: CountingProxy;
let replicas: Replica[];
let env: Record<string, string>;
let token: string;
let shared: string;
let stranger: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis(['--appendonly', 'yes', '--appendfsync', 'always']);
  proxy = await countingProxy(sb.url);
  env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: proxy.url,
    DCHUB_UPSTREAM_KEY: ORG_KEY,
    DCHUB_UPSTREAM_TIER: 'pro',
    DCHUB_GATEWAY_DEGRADED_FRACTION: String(FRACTION),
  };
  token = await addToken(env, 'analyst-a');
  shared = await addToken(env, 'analyst-s', 400);
  stranger = await addToken(env, 'analyst-b');
  replicas = await startReplicas(2, env);
}, 60_000);

afterAll(async () => {
  await Promise.all((replicas ?? []).map((r) => r.stop()));
  await proxy?.close();
  await redis?.close();
  await sb?.close();
});

const ask = (r: Replica, path: string, key = token) => fetch(`${r.url}${path}`, { headers: { 'X-API-Key': key } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The team's ledger and analyst-s's share, as Redis holds them. */
async function ledgers(): Promise<{ team: number; share: number }> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const teamKey = `${NS}dchub:quota:${callerLedgerId(proxy.url, ORG_KEY)}`;
    const shareKey = `${NS}dchub:quota:gw-share:${hashToken(shared).slice(0, 24)}`;
    const [team, share] = await client.mGet([teamKey, shareKey]);
    const used = (s: string | null) => (s ? (JSON.parse(s) as { used: number }).used : 0);
    return { team: used(team), share: used(share) };
  } finally {
    await client.close();
  }
}

interface Seen {
  status: number;
  notice: string | null;
  afterStop: boolean;
}

/** Cached questions asked over both replicas, four at a time, until `stop()`. */
function load(paths: string[], stopped: () => boolean) {
  const seen: Seen[] = [];
  let running = true;
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      const afterStop = stopped();
      const r = await ask(replicas[(w + i) % 2], paths[(w + i) % paths.length]);
      await r.arrayBuffer();
      seen.push({ status: r.status, notice: r.headers.get('x-dchub-notice'), afterStop });
    }
  };
  const done = Promise.all([0, 1, 2, 3].map(worker));
  return {
    seen,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

async function readyz(r: Replica): Promise<{ status: string; reason?: string }> {
  return (await (await fetch(`${r.url}/readyz`)).json()) as { status: string; reason?: string };
}

describe('Redis stops mid-load and comes back', () => {
  const cached = ['/api/v1/markets?limit=3', '/api/v1/markets?limit=4', '/api/v1/stats'];
  let before: { team: number; share: number };
  let upstreamAtStop = 0;
  let budget = 0;

  it('answers keep coming, from each replica memory, marked degraded', async () => {
    for (const p of cached) for (const r of replicas) expect((await ask(r, p)).status).toBe(200);
    expect((await ask(replicas[0], cached[0], shared)).status).toBe(200);
    before = await ledgers();
    budget = Math.floor(FRACTION * (2000 - before.team));
    let down = false;
    const running = load(cached, () => down);
    await sleep(300);
    upstreamAtStop = proxy.seen.length;
    await redis.stop();
    down = true;
    await sleep(1_000);
    await running.stop();
    const after = running.seen.filter((s) => s.afterStop);
    expect(after.length).toBeGreaterThan(10);
    expect(running.seen.every((s) => s.status === 200)).toBe(true);
    expect(after.every((s) => /Redis unreachable/.test(s.notice ?? ''))).toBe(true);
    expect(proxy.seen.length).toBe(upstreamAtStop); // every cached answer from the replica's memory
    for (const r of replicas) expect(await readyz(r)).toMatchObject({ status: 'degraded' });
  });

  it("a caller's share applies in proportion: ⌈fraction × its share left⌉ on each replica", async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => ask(replicas[0], `/api/v1/markets?limit=${60 + i}`, shared)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 503, 503, 503]); // ⌈0.005 × 400⌉ = 2
    const refused = answers.find((a) => a.status === 503)!;
    expect(((await refused.json()) as { message: string }).message).toMatch(/analyst-s may make 2 upstream requests/);
    expect(proxy.seen.length - upstreamAtStop).toBe(2);
  });

  it('new questions spend at most the fraction, per replica; the rest get a 503 saying why', async () => {
    const answers = await Promise.all(
      replicas.flatMap((r) => Array.from({ length: 25 }, (_, i) => ask(r, `/api/v1/markets?limit=${20 + i}`))),
    );
    const statuses = answers.map((a) => a.status);
    const spent = proxy.seen.length - upstreamAtStop;
    expect(budget).toBe(9); // floor(0.005 × the 1,99x requests left when the replica last read the ledger)
    expect(spent).toBe(2 * budget); // analyst-s's 2 on replica 0 included
    expect(statuses.filter((s) => s === 200).length).toBe(spent - 2);
    expect(statuses.filter((s) => s === 503).length).toBe(50 - (spent - 2));
    const refused = answers.find((a) => a.status === 503)!;
    expect(refused.headers.get('x-dchub-notice')).toMatch(/\(Redis unreachable\); at most 0 more upstream requests/);
    expect(await refused.json()).toMatchObject({ error: 'gateway_degraded' });
  });

  it('a token this replica never saw gets a 503 with a clear JSON error, not a 401', async () => {
    const r = await ask(replicas[0], '/api/v1/stats', stranger);
    expect(r.status).toBe(503);
    expect(await r.json()).toMatchObject({ error: 'gateway_degraded' });
  });

  it('Redis back: ready again, and the ledger and the share count what was spent while it was down', async () => {
    const spent = proxy.seen.length - upstreamAtStop;
    await redis.start();
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      const states = await Promise.all(replicas.map(readyz));
      if (states.every((s) => s.status === 'ready')) break;
      await sleep(100);
    }
    for (const r of replicas) expect(await readyz(r)).toMatchObject({ status: 'ready' });
    const after = await ledgers();
    expect(after.team - before.team).toBe(spent);
    expect(after.share - before.share).toBe(2);
    const again = await ask(replicas[1], '/api/v1/stats', stranger);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-dchub-notice')).toBeNull();
  });
});
