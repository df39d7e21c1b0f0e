import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DirectoryStore } from '../src/cache/dirstore.js';
import {
  AuthError,
  DchubClient,
  McpToolClient,
  MemoryStore,
  QuotaLedger,
  QuotaSpentError,
  ResponseCache,
  TOOL_ANSWER_META,
  ValidationError,
  serverAnswerOf,
} from '../src/index.js';
import { loopback, type Loopback } from './support/loopback.js';

/**
 * What a long-lived MCP client behind a team gateway needs from core: a session the server ended is
 * opened again; processes sharing a store ask a question once; what the server said is kept with the
 * errors made of it; a gateway's word on how it obtained an answer (`_meta`) is shown as core's own.
 */
let sb: RunningSandbox;
let dir: string;
const PRO = 'mcp-shared-pro';

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'mcp-shared',
    now: '2026-11-21T12:00:00Z',
    keys: `pro=${PRO}`,
    controls: true,
  });
  dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-mcp-shared-'));
});
afterAll(async () => {
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A fetch that counts the tools/call requests it sends. */
function countingFetch(): { fetch: typeof fetch; calls: () => number } {
  let n = 0;
  return {
    // core hands its fetch a Request (redirects are followed by hand).
    fetch: async (input, init) => {
      const body =
        input instanceof Request ? await input.clone().text() : typeof init?.body === 'string' ? init.body : '';
      if (/"method":"tools\/call"/.test(body)) n++;
      return fetch(input, init);
    },
    calls: () => n,
  };
}

describe('McpToolClient over a long session and a shared store', () => {
  it('opens a session the server ended (evicted when idle) again, once, and the call goes through', async () => {
    const mcp = new McpToolClient(new DchubClient({ baseUrl: sb.url, apiKey: PRO, tier: 'pro' }), { apiKey: PRO });
    try {
      await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      // The sandbox evicts sessions idle for 5 minutes (its clock): the next POST on the old session gets 404.
      await fetch(`${sb.url}/_sandbox/clock`, { method: 'POST', body: JSON.stringify({ advance_seconds: 600 }) });
      const again = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' }, { refresh: true });
      expect(again.fromCache).toBe(false);
      expect(again.isError).toBe(false);
      expect((await mcp.listTools()).length).toBe(29);
    } finally {
      await mcp.close();
    }
  });

  it('two processes over one store asking the same at once: one call, the other reads its answer', async () => {
    const counter = countingFetch();
    const clients = [0, 1].map(
      () =>
        new McpToolClient(
          new DchubClient({ baseUrl: sb.url, apiKey: PRO, cache: new ResponseCache(new DirectoryStore(dir)) }),
          { apiKey: PRO, fetch: counter.fetch },
        ),
    );
    try {
      const [a, b] = await Promise.all(clients.map((c) => c.callTool('get_interconnection_queue', { iso: 'ERCOT' })));
      expect(counter.calls()).toBe(1);
      expect(b.data).toEqual(a.data);
      expect([a.fromCache, b.fromCache].sort()).toEqual([false, true]);
      expect([a, b].find((r) => r.fromCache)?.ageMs).toBeGreaterThanOrEqual(0);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('a ledger that refuses by throwing (a gateway caller spent its share) still lets the last answer serve', async () => {
    const cache = new ResponseCache();
    const rest = new DchubClient({ baseUrl: sb.url, apiKey: PRO, cache });
    const first = new McpToolClient(rest, { apiKey: PRO, lifetimeMs: 1 });
    await first.callTool('get_market_dcpi_rank', { market_slug: 'austin' });
    await first.close();
    class SpentShare extends QuotaLedger {
      override reserveCall(): ReturnType<QuotaLedger['reserveCall']> {
        return Promise.reject(new QuotaSpentError(1, '2026-11-22T00:00:00.000Z'));
      }
    }
    const ledger = new SpentShare(new MemoryStore(), 'share', { tier: 'free' });
    const mcp = new McpToolClient(rest, { apiKey: PRO, ledger });
    await new Promise((r) => setTimeout(r, 5));
    const r = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'austin' });
    expect(r).toMatchObject({
      fromCache: true,
      stale: true,
      reason: expect.stringMatching(/^daily allowance of 1 calls is spent/),
    });
    expect(mcp.callsSent).toBe(0);
    await expect(mcp.callTool('get_market_dcpi_rank', { market_slug: 'boise' })).rejects.toBeInstanceOf(
      QuotaSpentError,
    );
  });

  it('keeps what the server said with the errors made of it: the wall as a tool result, -32602 as its error', async () => {
    const mcp = new McpToolClient(new DchubClient({ baseUrl: sb.url }));
    try {
      const wall = await mcp.callTool('analyze_site', { lat: 39, lon: -77 }).catch((e: unknown) => e);
      expect(wall).toBeInstanceOf(AuthError);
      const said = serverAnswerOf(wall);
      expect(said && 'result' in said && said.result).toMatchObject({ isError: true, structured: true });
      const result = (said as { result: { text: string; data: { error?: string } } }).result;
      expect(result.data.error).toBe('pro_required');
      expect(JSON.parse(result.text)).toEqual(result.data);
      const invalid = await mcp.callTool('get_news', { limit: 'lots' }).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(ValidationError);
      expect(serverAnswerOf(invalid)).toEqual({
        rpcError: {
          code: -32602,
          message: expect.stringMatching(/^limit: /),
          data: { param: 'limit', tool: 'get_news' },
        },
      });
      expect(serverAnswerOf(new Error('not from a server'))).toBeUndefined();
    } finally {
      await mcp.close();
    }
  });
});

describe("a gateway's word on how it obtained a tool answer (_meta)", () => {
  let standin: Loopback;
  let facts: Record<string, unknown> = {};
  beforeAll(async () => {
    standin = await loopback((req, res, body) => {
      if (req.method !== 'POST') return res.writeHead(405).end();
      const m = JSON.parse(body || '{}') as { id?: unknown; method?: string; params?: { protocolVersion?: string } };
      if (m.id === undefined) return res.writeHead(202).end();
      const result =
        m.method === 'initialize'
          ? {
              protocolVersion: m.params?.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'gateway stand-in', version: '1' },
            }
          : {
              content: [{ type: 'text', text: '{"verdict":"excess"}' }],
              structuredContent: { verdict: 'excess' },
              _meta: { [TOOL_ANSWER_META]: facts },
            };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }));
    });
  });
  afterAll(() => standin?.close());

  const client = () =>
    new McpToolClient(new DchubClient({ baseUrl: standin.url, apiKey: 'gateway-standin-key' }), {
      apiKey: 'gateway-standin-key',
    });

  it('stale: marked stale with its age and why, a warning to show, and not kept as a fresh answer', async () => {
    facts = { from_cache: true, stale: true, age_ms: 7_200_000, reason: 'the service could not be reached' };
    const mcp = client();
    try {
      const r = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      expect(r).toMatchObject({ data: { verdict: 'excess' }, fromCache: true, stale: true, ageMs: 7_200_000 });
      expect(r.warnings).toEqual(['served from the cache (2 h old): the service could not be reached']);
      await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      expect(mcp.callsSent).toBe(2);
    } finally {
      await mcp.close();
    }
  });

  it("from the gateway's cache: said so with its age, kept only for what is left of its lifetime", async () => {
    facts = { from_cache: true, stale: false, age_ms: 3_000_000, allowance: 'past the assumed allowance' };
    const mcp = client();
    try {
      const r = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' });
      expect(r).toMatchObject({ fromCache: true, ageMs: 3_000_000, warnings: ['past the assumed allowance'] });
      expect(r.stale).toBeUndefined();
      const again = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' });
      expect(again.fromCache).toBe(true);
      expect(again.ageMs).toBeGreaterThanOrEqual(3_000_000);
      expect(mcp.callsSent).toBe(1);
      // 50 of its 60 minutes were spent at the gateway: 11 minutes on, the answer is asked again.
      const later = new McpToolClient(
        new DchubClient({
          baseUrl: standin.url,
          apiKey: 'gateway-standin-key',
          cache: mcp.rest.cache,
          now: () => Date.now() + 660_000,
        }),
        { apiKey: 'gateway-standin-key' },
      );
      await later.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' });
      expect(later.callsSent).toBe(1);
      await later.close();
    } finally {
      await mcp.close();
    }
  });
});
