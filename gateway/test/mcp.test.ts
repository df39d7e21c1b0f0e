import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, MCP_TOOL_NAMES, TOOL_ANSWER_META, ValidationError, toolTable } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { runGatewayCli } from '../src/cli.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { addToken, startReplicas, type Replica } from './support/replicas.js';
import { AnswerLog, hostTools, mcpProxy, postRpc, sdkClient, toolCall, type McpProxy } from './support/mcp.js';

/**
 * Issue 25, MCP: /mcp through two gateway processes over one real redis-server, the sandbox behind a
 * proxy that counts upstream tools/call. Tool answers are cached and counted team-wide; the tool list
 * is the service's; core's own MCP client (what `dchub tool` and Excel's TOOL run) works unchanged;
 * a revoked token is refused; the organisation's key appears in no answer.
 */
const ORG_KEY = 'mcp-org-pro-canary-7f3a9c';

let sb: RunningSandbox;
let redis: TestRedis;
let proxy: McpProxy;
let replicas: Replica[];
let env: Record<string, string>;
let token: string;
const log = new AnswerLog();

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway-mcp', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis();
  proxy = await mcpProxy(sb.url);
  env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: proxy.url,
    DCHUB_UPSTREAM_KEY: ORG_KEY,
    DCHUB_UPSTREAM_TIER: 'pro',
    DCHUB_GATEWAY_LOG_LEVEL: 'info',
  };
  token = await addToken(env, 'analyst-mcp');
  replicas = await startReplicas(2, env);
}, 60_000);

afterAll(async () => {
  await Promise.all((replicas ?? []).map((r) => r.stop()));
  await proxy?.close();
  await redis?.close();
  await sb?.close();
});

/** The same call straight to the sandbox with the organisation's key: what the service answers. */
async function direct(name: string, args: Record<string, unknown>) {
  const client = await sdkClient(sb.url, ORG_KEY);
  try {
    return await client.callTool({ name, arguments: args });
  } finally {
    await client.close();
  }
}

describe('MCP through the gateway: stateless, cached and counted team-wide', () => {
  it('lists the service’s 29 tools with their input schemas, asked upstream once for both replicas', async () => {
    const before = proxy.count('tools/list');
    const lists = [];
    for (const r of replicas) {
      const client = await sdkClient(r.url, token, log);
      lists.push((await client.listTools()).tools);
      await client.close();
    }
    const upstream = await sdkClient(sb.url, ORG_KEY);
    const theirs = (await upstream.listTools()).tools;
    await upstream.close();
    expect(lists[0].map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    expect(lists[0]).toEqual(theirs);
    expect(lists[1]).toEqual(theirs);
    expect(proxy.count('tools/list') - before).toBe(1);
  });

  it('the same call through two replicas: one upstream tools/call, the answer as the service gave it', async () => {
    const call = toolCall('get_market_dcpi_rank', { market_slug: 'dallas' });
    const first = await postRpc(replicas[0].url, token, call, log);
    const second = await postRpc(replicas[1].url, token, call, log);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-dchub-cache')).toBe('miss');
    expect(second.headers.get('x-dchub-cache')).toBe('hit');
    // Stateless: no session is handed out, so the next request may go to any replica.
    expect(first.headers.get('mcp-session-id')).toBeNull();
    expect(proxy.count('tools/call')).toBe(1);
    const said = await direct('get_market_dcpi_rank', { market_slug: 'dallas' });
    for (const answer of [first, second]) {
      const { result } = answer.json as { result: Record<string, unknown> };
      expect(result.content).toEqual(said.content);
      expect(result.structuredContent).toEqual(said.structuredContent);
      expect(result.isError).toBeUndefined();
    }
    const facts = (r: typeof first) => (r.json as { result: { _meta: Record<string, unknown> } }).result._meta;
    expect(facts(first)[TOOL_ANSWER_META]).toEqual({ from_cache: false, stale: false, age_ms: 0 });
    expect(facts(second)[TOOL_ANSWER_META]).toMatchObject({ from_cache: true, stale: false });
  });

  it('20 identical calls at once over both replicas: one upstream tools/call', async () => {
    const before = proxy.count('tools/call');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postRpc(replicas[i % 2].url, token, toolCall('get_interconnection_queue', { iso: 'MISO' }, i), log),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const contents = new Set(
      answers.map((a) => JSON.stringify((a.json as { result: { content: unknown } }).result.content)),
    );
    expect(contents.size).toBe(1);
    expect(proxy.count('tools/call') - before).toBe(1);
  });

  it('GET and DELETE are 405 (no sessions, no server stream); no token is refused, an unknown tool invalid', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${replicas[0].url}/mcp`, { method, headers: { 'X-API-Key': token } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
    const anonymous = await postRpc(replicas[0].url, undefined, toolCall('get_backup_status', {}), log);
    expect(anonymous.status).toBe(401);
    // A tool the gateway does not serve: invalid params naming it, before anything is counted or sent.
    const before = proxy.seen.length;
    const unknown = await postRpc(replicas[0].url, token, toolCall('no_such_tool', {}), log);
    expect(unknown.headers.get('x-dchub-gateway')).toBeTruthy();
    expect((unknown.json as { error: unknown }).error).toMatchObject({ code: -32602, data: { param: 'name' } });
    expect(proxy.seen.length).toBe(before);
  });
});

describe("core's own MCP client (dchub tool, Excel's TOOL) pointed at a replica with a gateway token", () => {
  it('lists and calls tools unchanged: typed arguments, tables, cached answers, invalid params', async () => {
    const host = hostTools(replicas[1].url, token, log);
    try {
      expect((await host.listTools()).map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
      const args = await host.typedArguments('get_interconnection_queue', { iso: 'PJM' });
      const r = await host.callTool('get_interconnection_queue', args);
      const straight = hostTools(sb.url, ORG_KEY);
      const theirs = await straight.callTool('get_interconnection_queue', { iso: 'PJM' });
      await straight.close();
      expect(r.data).toEqual(theirs.data);
      expect(r.text).toBe(theirs.text);
      expect(toolTable(r)?.rows.length).toBeGreaterThan(0);
      // The tool's own error (isError) comes back as the service answered it.
      const bad = await host.callTool('compare_isos', { isos: 'PJM' });
      expect(bad.isError).toBe(true);
      // -32602 from the service: the parameter named, in one line, as core reads it from the service.
      const invalid = await host.callTool('get_news', { limit: 'lots' }).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(ValidationError);
      expect(invalid).toMatchObject({ param: 'limit', message: expect.stringMatching(/^limit: [^\n]+$/) });
    } finally {
      await host.close();
    }
  });

  it('a revoked token is refused mid-session: the host meets an AuthError (exit 3, #N/A)', async () => {
    const doomed = await addToken(env, 'analyst-revoked');
    const host = hostTools(replicas[0].url, doomed, log);
    try {
      const ok = await host.callTool('get_backup_status', {});
      expect(ok.isError).toBe(false);
      expect(await runGatewayCli(['token', 'revoke', 'analyst-revoked'], env, { out: () => {}, err: () => {} })).toBe(
        0,
      );
      const refused = await host.callTool('get_tax_incentives', { state: 'TX' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AuthError);
      expect((refused as AuthError).message).toMatch(/invalid_api_key|revoked|does not know this token/);
      const raw = await postRpc(replicas[1].url, doomed, toolCall('get_backup_status', {}), log);
      expect(raw.status).toBe(401);
    } finally {
      await host.close();
    }
  });
});

describe('the organisation’s key', () => {
  it('goes upstream on every MCP request and never comes back: not in an answer, a header or a log line', () => {
    const upstreamMcp = proxy.seen.filter((s) => s.path.startsWith('/mcp'));
    expect(upstreamMcp.length).toBeGreaterThan(0);
    expect(upstreamMcp.every((s) => s.key === ORG_KEY)).toBe(true);
    expect(proxy.seen.some((s) => s.key === token)).toBe(false);
    expect(log.texts.length).toBeGreaterThan(10);
    expect(log.includes(ORG_KEY)).toBe(false);
    for (const r of replicas) expect(r.output()).not.toContain(ORG_KEY);
  });
});
