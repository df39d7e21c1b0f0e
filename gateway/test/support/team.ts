import { startSandbox, type RunningSandbox } from '../../../sandbox/src/server.js';
import { startRedis, type TestRedis } from './redis.js';
import { addToken, countingProxy, startReplicas, type CountingProxy, type Replica } from './replicas.js';

/**
 * A whole team scenario: the sandbox (the organisation's key known to it at `tier`), a counting
 * proxy before it, a throwaway redis-server, `replicas` gateway processes, and tokens by name.
 * Every answer a test reads through `ask` is kept, so that the file can check at its end that the
 * organisation's key (a canary) appears in no answer body, no answer header and no replica output.
 */

export interface TeamSetup {
  /** The organisation's key: a canary, looked for in everything the gateway says. */
  orgKey: string;
  /** The sandbox tier of that key (free: 10 requests a day; pro: 2,000). */
  tier: 'free' | 'starter' | 'pro' | 'enterprise';
  replicas: number;
  /** Tokens to add by name, with their daily share (undefined: none). */
  tokens: Record<string, number | undefined>;
  /** More gateway environment (DCHUB_GATEWAY_DERIVE, DCHUB_UPSTREAM_TIER...). */
  env?: Record<string, string>;
  /** Sandbox options beyond the key (its clock, its controls). */
  sandbox?: Parameters<typeof startSandbox>[0];
}

/** One answer as a caller saw it. */
export interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RunningTeam {
  sb: RunningSandbox;
  redis: TestRedis;
  proxy: CountingProxy;
  replicas: Replica[];
  env: Record<string, string>;
  tokens: Record<string, string>;
  /** Asks `path` of `replica` with `token` (its name); the answer is kept for the canary check. */
  ask(replica: Replica, token: string, path: string, init?: RequestInit): Promise<Seen>;
  /** Upstream requests whose path and query start with `prefix` (all of them without one). */
  upstream(prefix?: string): number;
  /** Where the organisation's key showed up: answers by path, replica outputs by index (empty: nowhere). */
  leaks(): string[];
  close(): Promise<void>;
}

export async function startTeam(setup: TeamSetup): Promise<RunningTeam> {
  const sb = await startSandbox({
    port: 0,
    seed: 'gateway-team',
    ...setup.sandbox,
    keys: `${setup.tier}=${setup.orgKey}`,
  });
  const redis = await startRedis();
  const proxy = await countingProxy(sb.url);
  const env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: proxy.url,
    DCHUB_UPSTREAM_KEY: setup.orgKey,
    DCHUB_GATEWAY_LOG_LEVEL: 'debug',
    ...setup.env,
  };
  const tokens: Record<string, string> = {};
  for (const [name, share] of Object.entries(setup.tokens)) tokens[name] = await addToken(env, name, share);
  const replicas = await startReplicas(setup.replicas, env);
  const seen: Array<Seen & { path: string }> = [];
  const ask = async (replica: Replica, token: string, path: string, init: RequestInit = {}): Promise<Seen> => {
    const res = await fetch(`${replica.url}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'X-API-Key': tokens[token] ?? token },
    });
    const answer = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
    seen.push({ ...answer, path });
    return answer;
  };
  return {
    sb,
    redis,
    proxy,
    replicas,
    env,
    tokens,
    ask,
    upstream: (prefix = '') => proxy.seen.filter((s) => s.url.startsWith(prefix)).length,
    leaks: () => [
      ...seen
        .filter((s) => s.body.includes(setup.orgKey) || JSON.stringify(s.headers).includes(setup.orgKey))
        .map((s) => `answer to ${s.path}`),
      ...replicas.flatMap((r, i) => (r.output().includes(setup.orgKey) ? [`output of replica ${i}`] : [])),
    ],
    async close() {
      await Promise.all(replicas.map((r) => r.stop()));
      await proxy.close();
      await redis.close();
      await sb.close();
    },
  };
}

/** `n` answers of the same kind of question, asked at once, spread over the replicas round-robin. */
export function spread(
  team: RunningTeam,
  token: string,
  paths: string[],
  replicas: Replica[] = team.replicas,
): Promise<Seen[]> {
  return Promise.all(paths.map((p, i) => team.ask(replicas[i % replicas.length], token, p)));
}

/** A canary key: a string nothing else would contain (printable ASCII, as keys are). */
export const canaryKey = (label: string) => `canary-${label}-${Math.random().toString(36).slice(2, 12)}-org-key`;
