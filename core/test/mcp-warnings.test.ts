import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DirectoryStore } from '../src/cache/dirstore.js';
import { DchubClient, MCP_DAILY_ALLOWANCE, McpToolClient, MemoryStore, QuotaLedger } from '../src/index.js';
import { cliRunner } from './support/cli.js';

/**
 * Past an assumed MCP allowance (the service has not stated it) a call still goes out, and the
 * ledger's warning comes back with the answer (`ToolResult.warnings`) for the hosts to show: the
 * panel's banner, the CLI's stderr. A known, spent allowance refuses before any call.
 */
let sb: RunningSandbox;
let dir: string;
const PRO = 'mcp-warn-pro';
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'mcp-warn', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}` });
  dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-mcp-warn-'));
});
afterAll(async () => {
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('McpToolClient and an assumed allowance', () => {
  it('sends the call past it and returns the warning with that answer only (not cached with it)', async () => {
    const rest = new DchubClient({ baseUrl: sb.url, apiKey: PRO });
    const ledger = new QuotaLedger(new MemoryStore(), 'mcp-warn', { tier: 'free', allowance: { free: 1 } });
    const mcp = new McpToolClient(rest, { apiKey: PRO, ledger });
    try {
      const first = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      expect(first.warnings).toBeUndefined();
      const second = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' });
      expect(second.isError).toBe(false);
      expect(mcp.callsSent).toBe(2);
      expect(second.warnings).toEqual([
        expect.stringMatching(/^more than the assumed 1 calls a day \(free tier\) were used; .*calls continue$/),
      ]);
      const cached = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' });
      expect(cached.fromCache).toBe(true);
      expect(cached.warnings).toBeUndefined();
    } finally {
      await mcp.close();
    }
  });

  it('a known, spent allowance refuses before any call', async () => {
    const rest = new DchubClient({ baseUrl: sb.url, apiKey: PRO });
    const ledger = new QuotaLedger(new MemoryStore(), 'mcp-known', {
      tier: 'free',
      allowance: { free: 1 },
      confirmed: true,
    });
    const mcp = new McpToolClient(rest, { apiKey: PRO, ledger });
    try {
      await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      await expect(mcp.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' })).rejects.toThrow(
        /daily|allowance|quota/i,
      );
      expect(mcp.callsSent).toBe(1);
    } finally {
      await mcp.close();
    }
  });

  it('a known, spent allowance serves the last good answer with its age and why (the stale rule of REST answers)', async () => {
    const rest = new DchubClient({ baseUrl: sb.url, apiKey: PRO });
    const ledger = new QuotaLedger(new MemoryStore(), 'mcp-stale', {
      tier: 'free',
      allowance: { free: 1 },
      confirmed: true,
    });
    const mcp = new McpToolClient(rest, { apiKey: PRO, ledger, lifetimeMs: 0 });
    try {
      const fresh = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      const again = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      expect(mcp.callsSent).toBe(1);
      expect(again).toMatchObject({ fromCache: true, data: fresh.data });
      expect(again.warnings).toEqual([
        expect.stringMatching(/^served from the cache \(\d+ s old\): the daily MCP allowance of 1 calls is spent$/),
      ]);
      // Nothing cached for these arguments: refused as before.
      await expect(mcp.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' })).rejects.toThrow(
        /allowance|spent/i,
      );
    } finally {
      await mcp.close();
    }
  });

  it('an unreachable service serves the last good answer with its age; nothing cached, a network error', async () => {
    const gone = await startSandbox({ port: 0, seed: 'mcp-warn', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}` });
    const rest = new DchubClient({ baseUrl: gone.url, apiKey: PRO });
    const mcp = new McpToolClient(rest, { apiKey: PRO, lifetimeMs: 0 });
    try {
      const fresh = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      await gone.close();
      const again = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
      expect(again).toMatchObject({ fromCache: true, data: fresh.data });
      expect(again.warnings).toEqual([
        expect.stringMatching(/^served from the cache \(\d+ s old\): the service could not be reached$/),
      ]);
      await expect(mcp.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' })).rejects.toMatchObject({
        kind: 'network',
      });
    } finally {
      await mcp.close();
    }
  });

  it('the CLI prints the warning on stderr and the answer on stdout', async () => {
    // Today's assumed MCP calls of this key already spent, in the CLI's own store.
    const callerId = new DchubClient({ baseUrl: sb.url, apiKey: PRO }).callerId;
    const spent = new QuotaLedger(new DirectoryStore(dir), `${callerId}:mcp`, {
      tier: 'free',
      allowance: MCP_DAILY_ALLOWANCE,
    });
    expect(await spent.reserve(MCP_DAILY_ALLOWANCE.free)).toBe(true);
    const run = cliRunner(
      () => sb.url,
      () => dir,
    );
    const r = await run('tool', 'get_market_dcpi_rank', 'market_slug=dallas', '--api-key', PRO, '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toBeTruthy();
    expect(r.err).toMatch(
      new RegExp(
        `^dchub: warning: more than the assumed ${MCP_DAILY_ALLOWANCE.free} calls a day \\(free tier\\) were used; `,
        'm',
      ),
    );
    expect(r.err).not.toContain(PRO);
  });
});
