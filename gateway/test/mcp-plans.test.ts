import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { AuthError, RateLimitError, TOOL_ANSWER_META, type ToolResult } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { addToken, startReplicas, type Replica } from './support/replicas.js';
import { AnswerLog, hostTools, mcpProxy, postRpc, sdkClient, toolCall, type McpProxy } from './support/mcp.js';

/**
 * Issue 25, MCP: what the service says about the organisation's plan reaches the caller as the service
 * said it. A free-tier organisation key meets the Pro wall; a keyless gateway meets the service's
 * previews and its daily cap; a stale answer says so; a token's share is enforced on MCP calls too.
 */
const FREE_KEY = 'mcp-org-free-canary-51be07';

let sb: RunningSandbox;
let redis: TestRedis;
let proxy: McpProxy;
let free: Replica[];
let keyless: Replica[];
let freeEnv: Record<string, string>;
let keylessEnv: Record<string, string>;
let token: string;
let keylessToken: string;
const log = new AnswerLog();

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'gateway-mcp-plans',
    now: '2026-11-21T12:00:00Z',
    keys: `free=${FREE_KEY}`,
    controls: true,
  });
  redis = await startRedis();
  proxy = await mcpProxy(sb.url);
  const common = { REDIS_URL: redis.url, DCHUB_UPSTREAM_URL: proxy.url, DCHUB_GATEWAY_LOG_LEVEL: 'info' };
  freeEnv = { ...common, DCHUB_UPSTREAM_KEY: FREE_KEY, DCHUB_GATEWAY_NAMESPACE: 'gw-free:' };
  keylessEnv = { ...common, DCHUB_GATEWAY_NAMESPACE: 'gw-keyless:' };
  token = await addToken(freeEnv, 'analyst-free');
  keylessToken = await addToken(keylessEnv, 'analyst-keyless');
  [free, keyless] = await Promise.all([startReplicas(2, freeEnv), startReplicas(1, keylessEnv)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([...(free ?? []), ...(keyless ?? [])].map((r) => r.stop()));
  await proxy?.close();
  await redis?.close();
  await sb?.close();
});

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('a plan wall of the upstream (a free-tier organisation key)', () => {
  it('reaches the caller as the wall the service gave: the same result, the same AuthError in core', async () => {
    const before = proxy.count('tools/call');
    const via = await postRpc(free[0].url, token, toolCall('analyze_site', { lat: 39, lon: -77 }), log);
    const straight = await sdkClient(sb.url, FREE_KEY);
    const said = await straight.callTool({ name: 'analyze_site', arguments: { lat: 39, lon: -77 } });
    await straight.close();
    const { result } = via.json as { result: Record<string, unknown> };
    expect(said.isError).toBe(true);
    expect({ ...result, _meta: undefined }).toEqual({ ...said, _meta: undefined });
    const host = hostTools(free[1].url, token, log);
    const direct = hostTools(sb.url, FREE_KEY);
    const [wall, theirs] = await Promise.all([
      errorOf(host.callTool('analyze_site', { lat: 39, lon: -77 })),
      errorOf(direct.callTool('analyze_site', { lat: 39, lon: -77 })),
    ]);
    await Promise.all([host.close(), direct.close()]);
    expect(wall).toBeInstanceOf(AuthError);
    expect((wall as AuthError).message).toBe((theirs as AuthError).message);
    expect(wall).toMatchObject({ requiredPlan: 'pro', upgradeUrl: (theirs as AuthError).upgradeUrl });
    // A wall is never cached: each asks the service again (the plan may have changed).
    expect(proxy.count('tools/call') - before).toBe(2);
  });
});

describe('a keyless gateway: the service’s previews and its daily cap', () => {
  it('a list cut for the caller comes back partial with what it withholds, Markdown tail and all', async () => {
    const host = hostTools(keyless[0].url, keylessToken, log);
    const direct = hostTools(sb.url, undefined);
    const [r, theirs] = await Promise.all([
      host.callTool('get_interconnection_queue', { iso: 'PJM' }),
      direct.callTool('get_interconnection_queue', { iso: 'PJM' }),
    ]);
    await Promise.all([host.close(), direct.close()]);
    expect(theirs.partial).toBe(true);
    expect(r).toMatchObject({ partial: true, previewInfo: theirs.previewInfo, data: theirs.data, text: theirs.text });
  });

  it('the daily cap as the service states it, then nothing more is sent; held answers still serve', async () => {
    const host = hostTools(keyless[0].url, keylessToken, log);
    let capped: unknown;
    const states = ['TX', 'VA', 'OH', 'GA', 'AZ', 'OR', 'NV', 'IA', 'NC', 'SC', 'UT', 'WA'];
    for (const state of states) {
      capped = await errorOf(host.callTool('get_tax_incentives', { state }));
      if (capped) break;
    }
    expect(capped).toBeInstanceOf(RateLimitError);
    expect(capped).toMatchObject({ daily: true, resetAt: expect.stringMatching(/^2026-11-22T00:00:00/) });
    expect((capped as RateLimitError).message).toMatch(/^get_tax_incentives: MCP daily allowance reached/);
    await host.close();
    // The team's MCP ledger is spent: the gateway answers the cap itself, in the service's shape, and sends nothing.
    const sent = proxy.count('tools/call');
    const next = await postRpc(keyless[0].url, keylessToken, toolCall('get_tax_incentives', { state: 'MT' }), log);
    const { result } = next.json as { result: { isError?: boolean; structuredContent?: Record<string, unknown> } };
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'daily_limit_reached', resets_at: expect.any(String) });
    const fresh = hostTools(keyless[0].url, keylessToken, log);
    expect(await errorOf(fresh.callTool('get_tax_incentives', { state: 'ND' }))).toMatchObject({ daily: true });
    await fresh.close();
    expect(proxy.count('tools/call')).toBe(sent);
    const held = await postRpc(keyless[0].url, keylessToken, toolCall('get_tax_incentives', { state: 'TX' }), log);
    expect(held.headers.get('x-dchub-cache')).toBe('hit');
  });
});

/** Makes the team's stored answer of `tool` two hours old and expired (as time passing would). */
async function ageStoredAnswer(namespace: string, tool: string): Promise<void> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const page of client.scanIterator({ MATCH: `${namespace}dchub:c:*MCP*${tool}#*` })) keys.push(...page);
    expect(keys).toHaveLength(1);
    const stored = JSON.parse((await client.get(keys[0]))!) as { storedAt: number; expiresAt: number };
    const now = Date.now();
    await client.set(keys[0], JSON.stringify({ ...stored, storedAt: now - 7_200_000, expiresAt: now - 3_600_000 }));
  } finally {
    await client.close();
  }
}

describe('the service cannot be asked: the last answer, stale, says so', () => {
  it('served stale with its age and why, a note any MCP host shows, and core reads it as its own stale rule', async () => {
    await postRpc(free[0].url, token, toolCall('get_backup_status', {}), log);
    await ageStoredAnswer('gw-free:', 'get_backup_status');
    await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify([{ path_prefix: '/mcp', kind: 'status', status: 503 }]),
    });
    try {
      // The other replica: its memory does not hold the answer, Redis holds it expired.
      const raw = await postRpc(free[1].url, token, toolCall('get_backup_status', {}), log);
      expect(raw.headers.get('x-dchub-cache')).toBe('stale');
      const { result } = raw.json as { result: { content: Array<{ text: string }>; _meta: Record<string, unknown> } };
      expect(result.content[1].text).toBe(
        'DC Hub team gateway: served from the cache (2 h old): the service could not be reached',
      );
      expect(result._meta[TOOL_ANSWER_META]).toMatchObject({
        from_cache: true,
        stale: true,
        reason: 'the service could not be reached',
      });
      const host = hostTools(free[1].url, token, log);
      const r: ToolResult = await host.callTool('get_backup_status', {});
      await host.close();
      expect(r).toMatchObject({ stale: true, fromCache: true, reason: 'the service could not be reached' });
      expect(r.warnings).toEqual(['served from the cache (2 h old): the service could not be reached']);
    } finally {
      await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
    }
  });
});

describe('the tool list, kept for the team', () => {
  const listTools = (url: string) => postRpc(url, token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, log);
  const names = (r: { json: unknown }) => (r.json as { result: { tools: Array<{ name: string }> } }).result.tools;

  it('the service unreachable and no list held: core’s own copy of the 29 tools, said stale', async () => {
    await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify([{ path_prefix: '/mcp', kind: 'status', status: 503 }]),
    });
    try {
      const r = await listTools(free[0].url);
      expect(r.headers.get('x-dchub-cache')).toBe('stale');
      expect(names(r)).toHaveLength(29);
    } finally {
      await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
    }
    const before = proxy.count('tools/list');
    expect((await listTools(free[0].url)).headers.get('x-dchub-cache')).toBe('miss');
    expect((await listTools(free[1].url)).headers.get('x-dchub-cache')).toBe('hit');
    expect(proxy.count('tools/list') - before).toBe(1);
  });
});

describe('a token’s daily share counts MCP calls too', () => {
  it('past its share a token gets the daily cap with the reset time; answers the team holds still serve', async () => {
    const small = await addToken(freeEnv, 'analyst-small', 1);
    const first = await postRpc(free[0].url, small, toolCall('get_water_risk', { state: 'AZ' }), log);
    expect(first.headers.get('x-dchub-cache')).toBe('miss');
    expect(first.headers.get('x-dchub-share-remaining')).toBe('0');
    const sent = proxy.count('tools/call');
    const host = hostTools(free[1].url, small, log);
    const refused = await errorOf(host.callTool('get_water_risk', { state: 'NM' }));
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).message).toMatch(/daily share of 1 upstream requests of analyst-small/);
    expect((refused as RateLimitError).resetAt).toMatch(/^\d{4}-\d\d-\d\dT00:00:00/);
    expect(proxy.count('tools/call')).toBe(sent);
    await host.close();
    // The team's answer still serves the token (a host's core stops asking once told its day is over, as for REST).
    const held = await postRpc(free[1].url, small, toolCall('get_water_risk', { state: 'AZ' }), log);
    expect(held.headers.get('x-dchub-cache')).toBe('hit');
    expect((held.json as { result: { isError?: boolean } }).result.isError).toBeUndefined();
  });
});

describe('the organisation’s key', () => {
  it('appears in no answer and no log line', () => {
    expect(log.texts.length).toBeGreaterThan(10);
    expect(log.includes(FREE_KEY)).toBe(false);
    for (const r of [...free, ...keyless]) expect(r.output()).not.toContain(FREE_KEY);
    expect(
      proxy.seen.filter((s) => s.path.startsWith('/mcp') && s.key !== undefined).every((s) => s.key === FREE_KEY),
    ).toBe(true);
  });
});
