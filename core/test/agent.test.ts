import { afterEach, describe, expect, it, vi } from 'vitest';
import * as core from '../src/index.js';
import { expectShape, feedsSandbox, rejectsParam } from './support/feeds-sandbox.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('feeds, energy, agent (%s profile)', (profile) => {
  const { client, keyless, raw } = feedsSandbox(profile);

  describe('agent and account', () => {
    afterEach(() => vi.restoreAllMocks());

    it('claims a key, returns it to the caller and logs nothing', async () => {
      const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
        vi.spyOn(console, m).mockImplementation(() => {}),
      );
      const kc = keyless();
      const a = await core.claimKey(kc, { client_name: 'feeds-energy-agent-test', email: 'a@example.com' });
      expect(a.api_key).toMatch(/^dch_live_[0-9a-f]{32}$/);
      expect(a.tier).toBe('free');
      expect(a.reused).toBe(false);
      const b = await core.claimKey(kc, { client_name: 'feeds-energy-agent-test' });
      expect(b.api_key).toBe(a.api_key);
      expect(b.reused).toBe(true);
      for (const s of spies) expect(s).not.toHaveBeenCalled();
      // the claimed key works
      const me = await core.whoami(client(a.api_key, 'free'));
      expect(me.authenticated).toBe(true);
    });

    it('whoami is not cached; keyless answers with auth instructions', async () => {
      const c = client();
      const me = await core.whoami(c);
      const r = await raw('/api/agent/whoami');
      expect(me.authenticated).toBe(true);
      if (!me.authenticated) throw new Error('unreachable');
      expect(me.agent.name).toBe(r.agent.name);
      const again = await core.whoami(c);
      expect(c.requestsSent).toBe(2);
      if (!again.authenticated) throw new Error('unreachable');
      expect(again.agent.api_calls_remaining).toBeLessThan(me.agent.api_calls_remaining);
      const anon = await core.whoami(keyless());
      expect(anon.authenticated).toBe(false);
    });

    it('capabilities, stats and onboarding match the sandbox', async () => {
      const c = client();
      const cap = await core.agentCapabilities(c);
      expect(cap).toEqual(await raw('/api/agent/capabilities'));
      const ct = core.capabilitiesTable(cap);
      expect(ct.columns.slice(0, 3)).toEqual(['name', 'endpoint', 'description']);
      expectShape(ct, cap.capabilities.length);
      expect(ct.rows[0][ct.columns.indexOf('params')]).toBe('q, country, limit');
      const et = core.agentEndpointsTable(cap);
      expect(et.columns).toEqual(['method', 'path', 'auth']);
      expectShape(et, cap.endpoints.length);

      const st = await core.agentStats(c);
      expect(st).toEqual(await raw('/api/agent/stats'));
      expect(typeof st.stats.total_facilities).toBe('number');

      const ob = await core.onboard(c, 'MCP');
      expect(ob).toEqual(await raw('/api/v1/onboard?type=mcp'));
      expect(ob.category).toBe('mcp');
    });

    it('agent facility search (country by name)', async () => {
      const c = client();
      const f = await core.agentFacilities(c, { q: 'dallas', country: 'united states', limit: 4 });
      const r = await raw('/api/agent/facilities?q=dallas&country=united+states&limit=4');
      const strip = ({ api_calls_remaining: _a, ...o }: Record<string, unknown>) => o;
      expect(strip(f)).toEqual(strip(r));
      const t = core.agentFacilitiesTable(f);
      expect(t.columns.slice(0, 3)).toEqual(['id', 'name', 'provider']);
      expectShape(t, 4, ['id', 'power_mw', 'latitude', 'longitude']);
    });

    it('receipts and one receipt', async () => {
      const c = client();
      const l = await core.receipts(c);
      const served = await raw('/api/v1/receipts');
      // as_of is the sandbox clock to the second, which runs on between the two calls (a flake under load).
      expect(Date.parse(served.as_of) - Date.parse(l.as_of)).toBeGreaterThanOrEqual(0);
      expect(Date.parse(served.as_of) - Date.parse(l.as_of)).toBeLessThanOrEqual(1000);
      expect(l).toEqual({ ...served, as_of: l.as_of });
      const t = core.receiptsTable(l);
      expect(t.columns).toEqual([...core.RECEIPT_COLUMNS]);
      expectShape(t, l.counts.published_runs, ['run_id', 'model_replies', 'api_call_count', 'http_5xx_seen']);
      const id = l.receipts[0].run_id;
      const one = await core.receipt(c, id);
      expect(one).toEqual(await raw(`/api/v1/receipts/${id}`));
      const calls = core.receiptCallsTable(one);
      expectShape(calls, one.api_calls.length, ['n', 'response_bytes']);
      await expect(core.receipt(c, 999_999)).rejects.toBeInstanceOf(core.NotFoundError);
    });

    it('bad arguments throw ValidationError before any request', async () => {
      const c = client();
      await rejectsParam(core.claimKey(c, { client_name: 'x'.repeat(201) }), 'client_name');
      await rejectsParam(core.claimKey(c, { email: 'y'.repeat(201) }), 'email');
      await rejectsParam(core.agentFacilities(c, { limit: 101 }), 'limit');
      await rejectsParam(core.onboard(c, 'fax'), 'type');
      for (const bad of [0, 'x', -1, 2.5] as const) await rejectsParam(core.receipt(c, bad), 'run_id');
      expect(c.requestsSent).toBe(0);
    });
  });
});
