// The panel's connection choices against a stand-in Jupyter server whose relay routes are answered by
// core's relay (as the server extension hands them to the engine), over a real sandbox.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fetchMeta, refineQueue, siteScore } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { ServerConnection } from '@jupyterlab/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayRequest } from '../../core/src/engine/relay';
import { Session } from '../../core/src/engine/sessions';
import { Connection, DEFAULT_CONFIG } from '../src/connection';

const PRO = 'panel-connection-pro-key';

/**
 * A Jupyter server with the extension's routes (given the relay's session) or without them (`null`: no server
 * extension).
 */
async function jupyterServer(relay: Session | null, baseUrl: string) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => void answer(req, res, body));
  });
  /** Each route as the server extension answers it (handlers.py). */
  async function answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://jupyter');
    const reply = (
      status: number,
      text: string,
      headers: Record<string, string> = { 'content-type': 'application/json' }
    ) => {
      res.writeHead(status, headers);
      res.end(text);
    };
    if (!relay) return reply(404, '{}');
    if (url.pathname === '/dchub/config')
      return reply(200, JSON.stringify({ proxy: true, has_key: true, base_url: baseUrl, engine: true }));
    if (url.pathname === '/dchub/quota') {
      const q = await relay.ledger.snapshot();
      return reply(
        200,
        JSON.stringify({
          tier: q.tier,
          limit: q.limit,
          used: q.used,
          remaining: q.remaining,
          resets_at: q.resetsAt,
          confirmed: q.confirmed
        })
      );
    }
    if (!url.pathname.startsWith('/dchub/proxy/')) return reply(404, '{}');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const a = await relayRequest(
      relay,
      {
        method: req.method ?? 'GET',
        path: url.pathname.slice('/dchub/proxy/'.length),
        query: url.search.slice(1),
        headers,
        body: body || undefined
      },
      new AbortController().signal
    );
    reply(a.status, a.body, a.headers);
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    settings: ServerConnection.makeSettings({ baseUrl: url, wsUrl: url.replace('http', 'ws') }),
    close: () => new Promise<void>((r) => server.close(() => r()))
  };
}

describe('the panel’s connection', () => {
  let sb: RunningSandbox;
  let dir: string;
  let relay: Session;
  let jupyter: Awaited<ReturnType<typeof jupyterServer>>;
  let lite: Awaited<ReturnType<typeof jupyterServer>>;

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, seed: 'panel-connection', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}` });
    dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-panel-connection-'));
    relay = new Session({ base_url: sb.url, api_key: PRO, cache_dir: dir, derive: 'exact', env: {} }, () => undefined);
    jupyter = await jupyterServer(relay, sb.url);
    lite = await jupyterServer(null, sb.url);
  });
  afterAll(async () => {
    await jupyter?.close();
    await lite?.close();
    await sb?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("through the relay: no cache and no ledger of its own; the calls left and the answers' facts are the relay's", async () => {
    const conn = new Connection(jupyter.settings);
    conn.configure({ ...DEFAULT_CONFIG, baseUrl: sb.url });
    await conn.ready;
    expect(conn.state).toEqual({ mode: 'proxy', serviceUrl: sb.url, hasKey: true });
    const client = await conn.client();
    expect(client.relayed).toBe(true);
    expect(client.cache).toBeUndefined();
    expect(client.ledger).toBeUndefined();

    const wide = await refineQueue(client, { iso: 'NYISO', limit: 1000 });
    expect(wide.count_returned).toBe(wide.count_total_matching);
    const left = await conn.callsLeft();
    expect(left).toEqual({
      remaining: (await relay.ledger.snapshot()).remaining,
      limit: expect.any(Number),
      confirmed: expect.any(Boolean),
      shared: true
    });
    // Another process on the server (a kernel, the CLI) spends a call of the same allowance: the panel sees it.
    await siteScore(relay.client, { lat: 39.04, lon: -77.49 });
    expect((await conn.callsLeft())?.remaining).toBe(left!.remaining - 1);

    // The relay derives the narrower question from its wide answer; the panel's banner facts say so.
    const narrow = await refineQueue(client, { iso: 'NYISO', min_mw: 100 });
    expect(fetchMeta(narrow)?.derivedFrom).toMatchObject({ query: 'iso=NYISO&limit=1000' });
    expect((await conn.callsLeft())?.remaining).toBe(left!.remaining - 1);

    // The relay reserves MCP calls on the server key's allowance: the panel's tool client keeps no ledger.
    expect((await conn.mcp()).ledger).toBeUndefined();
  });

  it('directly (the setting, or no relay as in JupyterLite): the browser keeps the answers and its own ledger', async () => {
    const chosen = new Connection(jupyter.settings);
    chosen.configure({ ...DEFAULT_CONFIG, baseUrl: sb.url, connection: 'direct' });
    await chosen.ready;
    const lite2 = new Connection(lite.settings);
    lite2.configure({ ...DEFAULT_CONFIG, baseUrl: sb.url });
    await lite2.ready;
    for (const conn of [chosen, lite2]) {
      expect(conn.state).toEqual({ mode: 'direct', serviceUrl: sb.url, hasKey: false });
      const client = await conn.client();
      expect(client.relayed).toBe(false);
      expect(client.cache).toBeDefined();
      expect(client.ledger).toBeDefined();
      await siteScore(client, { lat: 40, lon: -80 });
      expect(await conn.callsLeft()).toMatchObject({
        shared: false,
        remaining: (await client.ledger!.snapshot()).remaining
      });
      expect((await conn.mcp()).ledger).toBeDefined();
    }
  });
});
