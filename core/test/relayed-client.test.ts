import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { relayRequest } from '../src/engine/relay.js';
import { Session } from '../src/engine/sessions.js';
import {
  ANSWER_HEADER,
  DchubClient,
  MCP_DAILY_ALLOWANCE,
  McpToolClient,
  QuotaLedger,
  RateLimitError,
  answerHeader,
  fetchMeta,
  readAnswerHeader,
  refineQueue,
  siteScore,
  type FetchMeta,
} from '../src/index.js';
import { loopback, type Loopback } from './support/loopback.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

/** Reads any JSON answer as it is. */
const asIs = { what: 'answer', read: (v: unknown) => v };
const HOUR = 3_600_000;
const RELAY_ROOT = 'http://jupyter.test/dchub/proxy/';

/** The browser's side of the Jupyter handler: each request handed to core's relay, as the server does. */
function throughRelay(s: Session): typeof fetch {
  return async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => (headers[k] = v));
    const a = await relayRequest(
      s,
      {
        method: req.method,
        path: url.pathname.replace(/^\/dchub\/proxy\//, ''),
        query: url.search.slice(1),
        headers,
        body: req.method === 'GET' ? undefined : await req.text(),
      },
      new AbortController().signal,
    );
    return new Response(a.body, { status: a.status, headers: a.headers });
  };
}

describe('the answer header', () => {
  const facts: FetchMeta = {
    fromCache: true,
    stale: true,
    preview: false,
    fetchedAt: 0,
    ageMs: 3 * HOUR,
    reason: 'service error',
    warnings: [],
    derivedFrom: { path: '/api/v1/interconnection-queue/refined', query: 'iso=SPP&limit=1000', ageMs: 3 * HOUR },
    allowance: 'more than the assumed 1000 calls a day (free tier) were used',
  };
  let service: Loopback;
  beforeAll(async () => {
    // A service that sets the relay's header itself: only a client told it talks to a relay may believe it.
    service = await loopback((req, res) => {
      const header = req.url?.includes('malformed') ? '{"from_cache":"yes"' : answerHeader(facts)[ANSWER_HEADER];
      res.writeHead(200, { 'content-type': 'application/json', [ANSWER_HEADER]: header });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  afterAll(() => service?.close());

  it('round-trips the facts a banner shows, and refuses a malformed header whole', () => {
    const read = readAnswerHeader(new Headers(answerHeader(facts)));
    expect(read).toEqual({
      fromCache: true,
      stale: true,
      ageMs: 3 * HOUR,
      reason: 'service error',
      derivedFrom: facts.derivedFrom,
      allowance: facts.allowance,
    });
    expect(answerHeader(undefined)).toEqual({});
    for (const bad of [
      '',
      'not json',
      '{"from_cache":true,"stale":false}',
      '{"from_cache":true,"stale":false,"age_ms":-1}',
      '{"from_cache":1,"stale":false,"age_ms":0}',
    ]) {
      expect(readAnswerHeader(new Headers({ [ANSWER_HEADER]: bad }))).toBeUndefined();
    }
    const noDerivedPath = '{"from_cache":true,"stale":false,"age_ms":0,"derived_from":{"query":"","ageMs":0}}';
    expect(readAnswerHeader(new Headers({ [ANSWER_HEADER]: noDerivedPath }))).toBeUndefined();
  });

  it('is read only by a relayed client: from the service it changes nothing', async () => {
    const direct = await new DchubClient({ baseUrl: service.url }).fetchJson('/api/x', asIs);
    expect(direct).toMatchObject({ fromCache: false, stale: false, warnings: [] });
    expect(direct.reason).toBeUndefined();
    expect(direct.derivedFrom).toBeUndefined();
    expect(direct.allowance).toBeUndefined();

    const relayed = await new DchubClient({ baseUrl: service.url, relayed: true }).fetchJson('/api/x', asIs);
    expect(relayed).toMatchObject({
      fromCache: true,
      stale: true,
      ageMs: 3 * HOUR,
      reason: 'service error',
      allowance: facts.allowance,
    });
    expect(relayed.derivedFrom).toEqual(facts.derivedFrom);
    expect(relayed.warnings).toEqual([facts.allowance]);
    expect(fetchMeta(relayed.data)).toMatchObject({ stale: true, reason: 'service error' });

    const malformed = await new DchubClient({ baseUrl: service.url, relayed: true }).fetchJson('/api/malformed', asIs);
    expect(malformed).toMatchObject({ fromCache: false, stale: false, ageMs: 0 });
  });
});

describe.each(SANDBOX_PROFILES)('a relayed client against core’s relay (%s profile)', (profile) => {
  let sb: RunningSandbox;
  let dir: string;
  let relay: Session;
  let client: DchubClient;
  const PRO = 'relayed-pro-key';
  const control = (p: string, body?: unknown, method = 'POST') =>
    fetch(sb.url + p, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'relayed',
      now: '2026-11-21T12:00:00Z',
      keys: `pro=${PRO}`,
      controls: true,
    });
  });
  afterAll(async () => {
    await sb?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await control('/_sandbox/faults', undefined, 'DELETE');
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-relayed-'));
    // The server's session: its key, its cache directory (shared with kernels and the CLI), its ledger.
    relay = new Session(
      { base_url: sb.url, api_key: PRO, cache_dir: dir, derive: 'exact', retries: 0, env: {} },
      () => undefined,
    );
    relay.clock = Date.parse('2026-11-21T12:00:00Z');
    client = new DchubClient({ baseUrl: RELAY_ROOT, fetch: throughRelay(relay), relayed: true });
  });

  it('keeps no cache and no ledger: every call goes to the relay, whose cache answers the second', async () => {
    expect(client.cache).toBeUndefined();
    expect(client.ledger).toBeUndefined();
    const first = await siteScore(client, { lat: 39.04, lon: -77.49 });
    const second = await siteScore(client, { lat: 39.04, lon: -77.49 });
    expect(second).toEqual(first);
    expect(client.requestsSent).toBe(2);
    expect(relay.client.requestsSent).toBe(1);
    expect(fetchMeta(first)).toMatchObject({ fromCache: false, stale: false });
    expect(fetchMeta(second)).toMatchObject({ fromCache: true, stale: false });
    expect((await relay.ledger.snapshot()).used).toBe(1);
  });

  it('says a narrower queue question was derived by the relay from its wider answer (the client derives nothing itself)', async () => {
    const wide = await refineQueue(client, { iso: 'SPP', limit: 1000 });
    expect(wide.count_returned).toBe(wide.count_total_matching);
    const narrow = await refineQueue(client, { iso: 'SPP', min_mw: 100 });
    expect(client.requestsSent).toBe(2);
    expect(relay.client.requestsSent).toBe(1);
    expect(fetchMeta(narrow)?.derivedFrom).toMatchObject({
      path: '/api/v1/interconnection-queue/refined',
      query: 'iso=SPP&limit=1000',
    });
    const own = (await (
      await fetch(`${sb.url}/api/v1/interconnection-queue/refined?iso=SPP&min_mw=100`, {
        headers: { 'X-API-Key': PRO },
      })
    ).json()) as {
      count_returned: number;
    };
    expect(narrow.count_returned).toBe(own.count_returned);
  });

  it("shows the relay's stale answer with its age and reason when the service fails", async () => {
    await client.fetchJson('/api/v1/markets/list', asIs);
    relay.clock! += 3 * HOUR;
    await control('/_sandbox/faults', [{ path_prefix: '/api/v1/markets', kind: 'status', status: 503 }]);
    const r = await client.fetchJson('/api/v1/markets/list', asIs);
    expect(r).toMatchObject({ fromCache: true, stale: true, reason: 'service error', ageMs: 3 * HOUR });
  });

  it("the relay's spent ledger refuses without asking the service: a daily RateLimitError, nothing sent upstream", async () => {
    await siteScore(client, { lat: 40, lon: -80 });
    await relay.ledger.exhaust();
    const sent = relay.client.requestsSent;
    const err = await siteScore(client, { lat: 41, lon: -81 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ daily: true, status: 429 });
    expect((err as Error).message).toMatch(/^daily allowance of \d+ calls is spent; it resets at 2026-11-22T00:00:00/);
    expect(relay.client.requestsSent).toBe(sent);
    // A question the relay has cached is still answered, from its cache.
    expect(fetchMeta(await siteScore(client, { lat: 40, lon: -80 }))).toMatchObject({ fromCache: true });
  });

  it('MCP: the relay keeps the MCP allowance, so the relayed tool client has none; a spent one reads as a daily limit', async () => {
    const mcp = new McpToolClient(client, { fetch: throughRelay(relay) });
    expect(mcp.ledger).toBeUndefined();
    const ok = await mcp.callTool('search_facilities', {});
    expect(ok.tool).toBe('search_facilities');
    const relayMcp = new QuotaLedger(relay.store, `${relay.client.callerId}:mcp`, {
      tier: 'free',
      allowance: MCP_DAILY_ALLOWANCE,
      now: relay.client.now,
    });
    expect((await relayMcp.snapshot()).used).toBe(1);
    expect(ok.warnings).toBeUndefined();
    // Past the assumed MCP allowance the relay lets the call go and says so; the result carries it.
    const { limit } = await relayMcp.snapshot();
    await relayMcp.reserveCall(limit - 1);
    const past = await mcp.callTool('search_facilities', { limit: 1 });
    expect(past.warnings).toEqual([
      expect.stringMatching(/^more than the assumed \d+ calls a day \(free tier\) were used/),
    ]);
    await relayMcp.exhaust();
    const err = await mcp.callTool('search_facilities', { limit: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ daily: true });
    expect((err as Error).message).toMatch(
      /^search_facilities: daily MCP allowance of \d+ calls is spent; it resets at /,
    );
    await mcp.close();
  });
});
