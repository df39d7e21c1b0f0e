import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import {
  DchubClient,
  McpToolClient,
  MemoryStore,
  QuotaLedger,
  QuotaSpentError,
  RateLimitError,
  ResponseCache,
  quotaLine,
  type Fetched,
} from '../src/index.js';
import { loopback, type Loopback } from './support/loopback.js';

/**
 * A host behind a team gateway (issue 25), the rule in core: the answer's facts come from the
 * gateway (recognised by X-DCHub-Gateway only), what the host keeps keeps its true age, the
 * gateway's notice is a warning line, and the ledger shows what the gateway states and never
 * refuses or exhausts on its own count. The stand-in answers with the headers gateway/src/headers.ts
 * sets (the real gateway's processes are in test/gateway and the Python suites).
 */
const RESETS = '2026-11-22T00:00:00.000Z';
const START = Date.parse('2026-11-21T12:00:00Z');

interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Gateway headers: the team's allowance, the caller's share (when given), the facts of the answer. */
function gatewayHeaders(o: { share?: [number, number]; team?: [number, number]; ageMs?: number; cached?: boolean }) {
  const [teamLeft, teamLimit] = o.team ?? [1990, 2000];
  return {
    'X-DCHub-Gateway': '0.1.0',
    'X-DCHub-Team-Limit': String(teamLimit),
    'X-DCHub-Team-Remaining': String(teamLeft),
    'X-DCHub-Resets-At': RESETS,
    ...(o.share ? { 'X-DCHub-Share-Limit': String(o.share[1]), 'X-DCHub-Share-Remaining': String(o.share[0]) } : {}),
    'x-dchub-answer': JSON.stringify({ from_cache: o.cached ?? false, stale: false, age_ms: o.ageMs ?? 0 }),
  };
}

let service: Loopback;
let next: Reply[] = [];

beforeAll(async () => {
  service = await loopback((_req, res: http.ServerResponse) => {
    const r = next.shift() ?? { headers: gatewayHeaders({ share: [40, 50] }) };
    res.writeHead(r.status ?? 200, { 'Content-Type': 'application/json', ...(r.headers ?? {}) });
    res.end(JSON.stringify(r.body ?? { success: true, markets: [] }));
  });
});
afterAll(() => service.close());

const reader = { what: 'answer', read: (v: unknown) => v };
function host(opts: { tier?: string; now?: () => number } = {}) {
  const store = new MemoryStore();
  const now = opts.now ?? (() => START);
  const ledger = new QuotaLedger(store, 'gw-host', { tier: opts.tier ?? 'free', confirmed: !!opts.tier, now });
  const client = new DchubClient({
    baseUrl: service.url,
    apiKey: 'dchg_token_of_analyst',
    ledger,
    cache: new ResponseCache(store),
    now,
    retries: 0,
  });
  return { client, ledger };
}
const ask = (c: DchubClient, q: string, refresh = false): Promise<Fetched<unknown>> =>
  c.fetchJson('/api/v1/markets', reader, new URLSearchParams({ q }), { refresh });

describe('an answer of a team gateway', () => {
  it("takes its age from the gateway's facts and keeps it true in the host's cache", async () => {
    let now = START;
    const { client } = host({ now: () => now });
    next = [{ headers: gatewayHeaders({ cached: true, ageMs: 600_000 }) }];
    const first = await ask(client, 'age');
    expect(first.fromCache).toBe(true);
    expect(first.ageMs).toBe(600_000);
    now += 60_000;
    const again = await ask(client, 'age');
    expect(service.seen.filter((s) => s.url.includes('q=age'))).toHaveLength(1);
    expect(again.fromCache).toBe(true);
    expect(again.ageMs).toBe(660_000);
    // Markets live 30 minutes from when the gateway wrote them: 20 more minutes, then it is asked again.
    now += 20 * 60_000;
    next = [{ headers: gatewayHeaders({}) }];
    expect((await ask(client, 'age')).fromCache).toBe(false);
    expect(service.seen.filter((s) => s.url.includes('q=age'))).toHaveLength(2);
  });

  it('the same header from a service that is no gateway is not read', async () => {
    const { client } = host();
    const { 'X-DCHub-Gateway': _gone, ...plain } = gatewayHeaders({ cached: true, ageMs: 600_000 });
    next = [{ headers: plain }];
    const r = await ask(client, 'plain');
    expect(r.fromCache).toBe(false);
    expect(r.ageMs).toBe(0);
  });

  it("the gateway's notice is one warning line of the answer", async () => {
    const { client } = host();
    const notice = 'degraded: the team gateway cannot reach Redis; answers come from this replica';
    next = [{ headers: { ...gatewayHeaders({}), 'X-DCHub-Notice': notice } }];
    const r = await ask(client, 'notice');
    expect(r.warnings).toEqual([notice]);
    expect(r.notice).toBe(notice);
    // Not kept with the answer: a later cached answer carries no notice.
    expect((await ask(client, 'notice')).warnings).toEqual([]);
  });
});

describe('the ledger behind a team gateway', () => {
  it('learns the gateway from an answer and shows the share and the team', async () => {
    const { client, ledger } = host();
    next = [{ headers: gatewayHeaders({ share: [37, 50], team: [1950, 2000] }) }];
    await ask(client, 'learn');
    const s = await ledger.snapshot();
    expect(s).toMatchObject({ viaGateway: true, tier: 'team gateway', confirmed: true, limit: 50, remaining: 37 });
    expect(s.gateway).toEqual({
      teamLimit: 2000,
      teamRemaining: 1950,
      shareLimit: 50,
      shareRemaining: 37,
      resetsAt: RESETS,
    });
    expect(quotaLine(s)).toBe(
      'via the team gateway: 37 of 50 requests left in your share today (team: 1950 of 2000); resets 2026-11-22 00:00 UTC',
    );
    expect(await ledger.remaining()).toBe(37);
  });

  it("never refuses a call its own count would have refused (a stated tier's 10 calls)", async () => {
    const { client, ledger } = host({ tier: 'anonymous' });
    for (let i = 0; i < 15; i++) await ask(client, `many-${i}`);
    expect(service.seen.filter((s) => s.url.includes('q=many-'))).toHaveLength(15);
    expect((await ledger.snapshot()).remaining).toBe(40);

    // The same host before a plain service: its count refuses the eleventh.
    const plain = host({ tier: 'anonymous' });
    next = Array.from({ length: 10 }, () => ({ headers: {} }));
    for (let i = 0; i < 10; i++) await ask(plain.client, `plain-${i}`);
    await expect(ask(plain.client, 'plain-10')).rejects.toBeInstanceOf(QuotaSpentError);
  });

  it('learns the gateway from its 429 and is not exhausted by it: the next answer the gateway holds comes', async () => {
    const { client, ledger } = host({ tier: 'anonymous' });
    next = [
      {
        status: 429,
        headers: gatewayHeaders({ share: [0, 5] }),
        body: { error: 'daily_limit_reached', message: 'your share is spent', resets_at: RESETS, limit: 5 },
      },
      { headers: gatewayHeaders({ share: [0, 5], cached: true, ageMs: 5_000 }) },
    ];
    await expect(ask(client, 'spent')).rejects.toBeInstanceOf(RateLimitError);
    const s = await ledger.snapshot();
    expect(s.viaGateway).toBe(true);
    expect(s.remaining).toBe(0);
    expect(quotaLine(s)).toContain('0 of 5 requests left in your share today');
    expect(quotaLine(s)).toContain('answers the gateway holds still come');
    const held = await ask(client, 'held');
    expect(held.fromCache).toBe(true);
    expect(held.ageMs).toBe(5_000);
  });

  it('an answer without the header says the service is a gateway no more', async () => {
    const { client, ledger } = host();
    next = [{ headers: gatewayHeaders({}) }, { headers: {} }];
    await ask(client, 'was');
    expect((await ledger.snapshot()).viaGateway).toBe(true);
    await ask(client, 'nomore');
    const s = await ledger.snapshot();
    expect(s.viaGateway).toBe(false);
    expect(s.gateway).toBeUndefined();
  });

  it('a new day fills the share and the team again until the gateway says otherwise', async () => {
    let now = START;
    const { client, ledger } = host({ now: () => now });
    next = [{ headers: gatewayHeaders({ share: [3, 50], team: [100, 2000] }) }];
    await ask(client, 'day');
    now = Date.parse(RESETS) + 3_600_000;
    const s = await ledger.snapshot();
    expect(s.gateway).toMatchObject({ shareRemaining: 50, teamRemaining: 2000, resetsAt: '2026-11-23T00:00:00.000Z' });
  });
});

describe('MCP behind a team gateway', () => {
  let sb: RunningSandbox;
  const PRO = 'gw-host-mcp-pro';
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, seed: 'gw-host-mcp', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}` });
  });
  afterAll(() => sb?.close());

  it("the MCP ledger learns the gateway from its answers and never refuses; the notice is a result's warning", async () => {
    const notice = 'degraded: the team gateway cannot reach Redis';
    // The sandbox's MCP answers as a gateway's come: marked, with a notice (the gateway's /mcp is its own suite's).
    const asGateway: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const headers = new Headers(res.headers);
      headers.set('X-DCHub-Gateway', '0.1.0');
      headers.set('X-DCHub-Notice', notice);
      return new Response(res.body, { status: res.status, headers });
    };
    const rest = new DchubClient({ baseUrl: sb.url, apiKey: PRO, cache: false, ledger: false });
    // A stated MCP allowance of 2 calls: on its own count the third call would be refused.
    const ledger = new QuotaLedger(new MemoryStore(), 'gw-mcp', {
      tier: 'pro',
      confirmed: true,
      allowance: { pro: 2 },
    });
    const mcp = new McpToolClient(rest, { apiKey: PRO, ledger, fetch: asGateway });
    try {
      const slugs = ['dallas', 'phoenix', 'chicago', 'atlanta'];
      const results = [];
      for (const market_slug of slugs) results.push(await mcp.callTool('get_market_dcpi_rank', { market_slug }));
      expect(results.map((r) => r.isError)).toEqual([false, false, false, false]);
      expect(mcp.callsSent).toBe(4);
      expect(results.every((r) => r.warnings?.includes(notice))).toBe(true);
      expect((await ledger.snapshot()).viaGateway).toBe(true);
    } finally {
      await mcp.close();
    }
  });
});
