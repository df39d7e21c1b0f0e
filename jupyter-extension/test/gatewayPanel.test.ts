// The panel behind a team gateway (issue 25): through the relay (the server's DCHUB_BASE_URL is a
// gateway replica, DCHUB_API_KEY a gateway token) and directly, its status says "via the team gateway"
// with the token's share left, and the gateway's notice reaches the answer's warnings through the relay.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fetchMeta, listMarkets, siteScore } from '@dchub/core';
import { ServerConnection } from '@jupyterlab/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../core/src/engine/sessions';
import { noticeProxy, startGatewayWorld, type GatewayWorld } from '../../gateway/test/support/hosts';
import { Connection, DEFAULT_CONFIG } from '../src/connection';
import { callsLeftText } from '../src/helpers';
import { jupyterServer } from './jupyterStandin';

const ORG_KEY = 'panel-gateway-org-pro-key';
const NOTICE = 'degraded: the team gateway cannot reach Redis; this replica answers from its memory';
const SHARE_LINE = /^via the team gateway: 29 of 30 requests left in your share today \(team: \d+ of \d+\); resets /;

describe('the panel behind a team gateway', () => {
  let w: GatewayWorld;
  let dir: string;
  let degraded: Awaited<ReturnType<typeof noticeProxy>>;
  const servers: Array<Awaited<ReturnType<typeof jupyterServer>>> = [];

  beforeAll(async () => {
    w = await startGatewayWorld({ profile: 'spec', orgKey: ORG_KEY, tokens: { relay: 30, browser: 30 } });
    dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-panel-gateway-'));
    degraded = await noticeProxy(w.replicas[1].url, NOTICE);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await degraded?.close();
    await w?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A Jupyter server whose relay asks `baseUrl` with the relay's token, and the panel's connection to it. */
  async function panel(baseUrl: string, cacheDir: string) {
    const relay = new Session(
      { base_url: baseUrl, api_key: w.tokens.relay, cache_dir: path.join(dir, cacheDir), env: {} },
      () => undefined
    );
    const jupyter = await jupyterServer(relay, baseUrl);
    servers.push(jupyter);
    const conn = new Connection(jupyter.settings);
    conn.configure({ ...DEFAULT_CONFIG, baseUrl });
    await conn.ready;
    return conn;
  }

  it("through the relay: the status is core's line, the token's share left and the team's", async () => {
    const conn = await panel(w.replicas[0].url, 'relay');
    expect(conn.state.mode).toBe('proxy');
    const client = await conn.client();
    await siteScore(client, { lat: 39.04, lon: -77.49 });
    const left = await conn.callsLeft();
    expect(left).toMatchObject({
      remaining: 29,
      limit: 30,
      shared: true,
      gatewayLine: expect.stringMatching(SHARE_LINE)
    });
    expect(callsLeftText(left!)).toMatch(SHARE_LINE);
  });

  it("the gateway's notice reaches the panel's answer through the relay", async () => {
    const conn = await panel(degraded.url, 'relay-degraded');
    const markets = await listMarkets(await conn.client());
    expect(fetchMeta(markets)?.warnings).toContain(NOTICE);
    expect(fetchMeta(markets)?.notice).toBe(NOTICE);
  });

  it("directly: the browser's own ledger learns the gateway and says so", async () => {
    // A Jupyter server that is not there (JupyterLite): the panel calls the gateway directly.
    const nowhere = 'http://127.0.0.1:9/';
    const conn = new Connection(
      ServerConnection.makeSettings({ baseUrl: nowhere, wsUrl: nowhere.replace('http', 'ws') })
    );
    conn.configure({ ...DEFAULT_CONFIG, baseUrl: w.replicas[0].url, connection: 'direct' });
    conn.setApiKey(w.tokens.browser);
    await conn.ready;
    expect(conn.state.mode).toBe('direct');
    await siteScore(await conn.client(), { lat: 40, lon: -80 });
    expect(callsLeftText((await conn.callsLeft())!)).toMatch(SHARE_LINE);
  });
});
