// The panel's connection choices against a stand-in Jupyter server whose relay routes are answered by
// core's relay (as the server extension hands them to the engine), over a real sandbox.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fetchMeta, refineQueue, siteScore } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../core/src/engine/sessions';
import { Connection, DEFAULT_CONFIG } from '../src/connection';
import { jupyterServer } from './jupyterStandin';

const PRO = 'panel-connection-pro-key';

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
