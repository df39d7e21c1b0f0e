import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import {
  AuthError,
  DchubClient,
  MCP_TOOL_NAMES,
  McpToolClient,
  RateLimitError,
  ValidationError,
  previewSentence,
  toolTable,
} from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('MCP client (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const PRO = 'mcp-client-pro';
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'mcp-client',
      now: '2026-11-21T12:00:00Z',
      keys: `pro=${PRO}`,
      controls: true,
    });
  });
  afterAll(() => sb?.close());

  describe('core MCP client (official SDK, streamable HTTP)', () => {
    it('lists the 29 tools with input schemas and calls them, cached like REST answers', async () => {
      const rest = new DchubClient({ baseUrl: sb.url, apiKey: PRO, tier: 'pro' });
      const mcp = new McpToolClient(rest, { apiKey: PRO });
      try {
        const tools = await mcp.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
        expect(tools.every((t) => t.inputSchema && typeof t.inputSchema === 'object')).toBe(true);
        const r = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
        expect(r.isError).toBe(false);
        const rest1 = await (
          await fetch(`${sb.url}/api/v1/dcpi/scores/dallas`, { headers: { 'X-API-Key': PRO } })
        ).json();
        expect(JSON.stringify(r.data)).toContain(rest1.verdict);
        const again = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'dallas' });
        expect(again.fromCache).toBe(true);
        expect(mcp.callsSent).toBe(1);
        // MCP calls count against their own allowance (spec §8.1), not the REST one.
        expect(await mcp.ledger!.remaining()).toBe(1000 - 1);
        expect(await rest.ledger!.remaining()).toBe(2000);
        const q = await mcp.callTool('get_interconnection_queue', { iso: 'PJM' });
        expect(toolTable(q)?.rows.length).toBeGreaterThan(0);
        await expect(mcp.callTool('no_such_tool')).rejects.toBeInstanceOf(ValidationError);
        const bad = await mcp.callTool('compare_isos', { isos: 'PJM' });
        expect(bad.isError).toBe(true);
        // -32602 from the server is a ValidationError naming the parameter, in one line.
        const invalid = await mcp.callTool('get_news', { limit: 'lots' }).catch((e: unknown) => e);
        expect(invalid).toBeInstanceOf(ValidationError);
        expect(invalid).toMatchObject({ param: 'limit', message: expect.stringMatching(/^limit: [^\n]+$/) });
      } finally {
        await mcp.close();
      }
    });
    it('keyless callers meet the Pro wall on Pro-only tools: a plan error with the upgrade message, not a table', async () => {
      const mcp = new McpToolClient(new DchubClient({ baseUrl: sb.url }));
      try {
        // Issue 10: the wall is an AuthError (exit 3, #N/A), no longer an isError result.
        const e = await mcp.callTool('analyze_site', { lat: 39, lon: -77 }).catch((x) => x);
        expect(e).toBeInstanceOf(AuthError);
        expect(e.requiredPlan).toBe('pro');
        // The real wall is the service's own words for a human (pro_required, for_your_human; notes §3.1).
        expect(e.message).toMatch(
          profile === 'real'
            ? /^analyze_site: analyze_site needs the Pro plan \(pro_required\)\. Upgrade at https:\/\/\S+ to use it \(your plan: anonymous\)$/
            : /^analyze_site: analyze_site is a Pro tool\. The Pro plan opens it \(your plan: anonymous\); upgrade: https?:\/\//,
        );
        expect(e.upgradeUrl).toMatch(/pricing/);
      } finally {
        await mcp.close();
      }
    });
    it('a keyless list answer cut to 2 rows (the real service: 3, "Preview: 3 of N") is marked partial', async () => {
      const mcp = new McpToolClient(new DchubClient({ baseUrl: sb.url }));
      const rows = profile === 'real' ? 3 : 2; // TRIAL_PREVIEW_ROWS (notes §3.1)
      try {
        const r = await mcp.callTool('search_facilities', { query: 'dallas', limit: 10 });
        expect(r.partial).toBe(true);
        expect(r.previewInfo?.shown).toBe(rows);
        expect(r.previewInfo?.total).toBeGreaterThan(rows);
        expect(previewSentence(r.previewInfo!)).toMatch(new RegExp(`^Preview: ${rows} of \\d+ rows shown; `));
      } finally {
        await mcp.close();
      }
    });
    it('keyless callers have 10 MCP calls a day: the server says so once, then nothing is sent', async () => {
      await fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' }); // earlier keyless tests spent some
      const mcp = new McpToolClient(new DchubClient({ baseUrl: sb.url }), {});
      try {
        for (let i = 0; i < 10; i++) await mcp.callTool('get_market_dcpi_rank', { market_slug: `m${i}` });
        // Issue 10: the MCP allowance is assumed (spec numbers) until the server states it, so the
        // 11th call goes out; the server's daily_limit_reached makes it known and spent.
        const e = await mcp.callTool('get_market_dcpi_rank', { market_slug: 'one-more' }).catch((x) => x);
        expect(e).toBeInstanceOf(RateLimitError);
        expect(e.message).toMatch(/MCP daily allowance reached .*resets at/);
        expect(mcp.callsSent).toBe(11);
        await expect(mcp.callTool('get_market_dcpi_rank', { market_slug: 'and-another' })).rejects.toThrow(
          /daily allowance of 10 calls/,
        );
        expect(mcp.callsSent).toBe(11);
      } finally {
        await mcp.close();
      }
    });
  });
});
