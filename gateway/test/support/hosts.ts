import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src/server.js';
import type { Profile } from '../../../sandbox/src/presenters/index.js';
import { runGatewayCli } from '../../src/cli.js';
import { startRedis, type TestRedis } from './redis.js';
import { addToken, countingProxy, startReplicas, type CountingProxy, type Replica } from './replicas.js';

/**
 * The hosts' side of a team gateway: a sandbox behind a counting proxy, a real redis-server, gateway
 * replicas as real processes, and the tokens of a few analysts (one with a small daily share).
 */
export interface GatewayWorld {
  sb: RunningSandbox;
  redis: TestRedis;
  proxy: CountingProxy;
  replicas: Replica[];
  env: Record<string, string>;
  /** name → token */
  tokens: Record<string, string>;
  dir: string;
  /** Upstream requests that carried `path` (with its query). */
  upstream(path: string): number;
  revoke(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startGatewayWorld(opts: {
  profile: Profile;
  orgKey: string;
  replicas?: number;
  /** name → daily share (0: none). */
  tokens: Record<string, number>;
  extraEnv?: Record<string, string>;
}): Promise<GatewayWorld> {
  const sb = await startSandbox({
    port: 0,
    profile: opts.profile,
    seed: 'gateway-hosts',
    now: '2026-11-21T12:00:00Z',
    keys: `pro=${opts.orgKey}`,
  });
  const redis = await startRedis();
  const proxy = await countingProxy(sb.url);
  const env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: proxy.url,
    DCHUB_UPSTREAM_KEY: opts.orgKey,
    DCHUB_UPSTREAM_TIER: 'pro',
    ...(opts.extraEnv ?? {}),
  };
  const tokens: Record<string, string> = {};
  for (const [name, share] of Object.entries(opts.tokens)) tokens[name] = await addToken(env, name, share || undefined);
  const replicas = await startReplicas(opts.replicas ?? 2, env);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-gw-hosts-'));
  return {
    sb,
    redis,
    proxy,
    replicas,
    env,
    tokens,
    dir,
    upstream: (p) => proxy.seen.filter((s) => s.url === p).length,
    revoke: async (name) => {
      const code = await runGatewayCli(['token', 'revoke', name], env, { out: () => {}, err: () => {} });
      if (code !== 0) throw new Error(`token revoke ${name} failed (${code})`);
    },
    close: async () => {
      await Promise.all(replicas.map((r) => r.stop()));
      await proxy.close();
      await redis.close();
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A proxy before a replica that adds `X-DCHub-Notice` to every answer, as a replica without Redis
 * says it is degraded (the line the hosts must show, whoever sends it).
 */
export async function noticeProxy(target: string, notice: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
        ) as Record<string, string>;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(target + (req.url ?? '/'), { method: req.method, headers, body });
        const out: Record<string, string> = { 'x-dchub-notice': notice };
        answer.headers.forEach((v, k) => {
          if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
        });
        res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
      })().catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
