import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AgentCapabilities,
  AgentFacilities,
  AgentStats,
  AgentWhoami,
  ErrorBody,
  ONBOARD_TYPES,
  Onboard,
  ReceiptDetail,
  ReceiptList,
} from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../src/server.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'x',
    now: '2026-11-21T12:00:00Z',
    keys: 'free=f1,developer=d1,pro=p1,enterprise=e1',
    controls: true,
  });
});
afterAll(() => sb?.close());
beforeEach(async () => {
  await fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' });
});

const call = async (path: string, key?: string, headers: Record<string, string> = {}) => {
  const res = await fetch(sb.url + path, { headers: { ...(key ? { 'X-API-Key': key } : {}), ...headers } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('agent endpoints', () => {
  it('capabilities describe endpoints, auth and discovery files', async () => {
    const r = AgentCapabilities.parse((await call('/api/agent/capabilities')).body);
    expect(r.endpoints.map((e) => e.path)).toContain('/api/v1/facilities/detail/{facility_id}');
    expect(r.auth.header).toBe('X-API-Key');
    expect(Object.keys(r.discovery_files)).toEqual(expect.arrayContaining(['openapi', 'llms_txt']));
  });

  it('whoami: keyless gets 200 authenticated:false with auth instructions', async () => {
    const { status, body } = await call('/api/agent/whoami');
    expect(status).toBe(200);
    const r = AgentWhoami.parse(body);
    expect(r.authenticated).toBe(false);
    if (!r.authenticated) expect(r.auth_instructions).toMatch(/auth\.md$/);
  });

  it('whoami: keyed callers see their profile and the requests left today', async () => {
    const first = AgentWhoami.parse((await call('/api/agent/whoami', 'f1')).body);
    expect(first.authenticated).toBe(true);
    if (!first.authenticated) return;
    expect(first.agent.api_calls_remaining).toBe(9); // free: 10 a day, this call counted
    await call('/api/v1/onboard?type=rest', 'f1');
    const second = AgentWhoami.parse((await call('/api/agent/whoami', 'f1')).body);
    if (second.authenticated) expect(second.agent.api_calls_remaining).toBe(7);
    const pro = AgentWhoami.parse((await call('/api/agent/whoami', 'p1')).body);
    if (pro.authenticated) {
      expect(pro.agent.api_calls_remaining).toBe(1999);
      expect(typeof pro.agent.is_claimed).toBe('boolean');
      expect(pro.agent.follower_count).toBe(0);
    }
  });

  it('agent facilities: country name, default 20, max 100, keyed extras', async () => {
    const anon = AgentFacilities.parse((await call('/api/agent/facilities?country=germany')).body);
    expect(anon.count).toBe(Math.min(20, sb.ctx.data.infra.facilities.filter((f) => f.country === 'DE').length));
    expect(anon.facilities.every((f) => f.country === 'DE')).toBe(true);
    expect(anon.authenticated_as).toBeUndefined();
    const keyed = AgentFacilities.parse((await call('/api/agent/facilities?q=dallas&limit=100', 'p1')).body);
    expect(keyed.count).toBe(
      Math.min(
        100,
        sb.ctx.data.infra.facilities.filter((f) => /dallas/i.test(`${f.name} ${f.city} ${f.market}`)).length,
      ),
    );
    expect(typeof keyed.authenticated_as).toBe('string');
    expect(typeof keyed.api_calls_remaining).toBe('number');
    const over = await call('/api/agent/facilities?limit=101', 'p1');
    expect(over.status).toBe(400);
    expect(over.body.param).toBe('limit');
  });

  it('stats: global counts', async () => {
    const r = AgentStats.parse((await call('/api/agent/stats', 'e1')).body);
    expect(r.stats.total_facilities).toBe(sb.ctx.data.infra.facilities.length);
    expect(r.stats.countries_covered).toBeGreaterThanOrEqual(170);
    expect(r.stats.news_feeds).toBeGreaterThanOrEqual(40);
  });

  it('onboard: each type, User-Agent detection, 400 naming type for other values', async () => {
    for (const t of ONBOARD_TYPES) {
      const r = Onboard.parse((await call(`/api/v1/onboard?type=${t}`, 'e1')).body);
      expect(r.category).toBe(t);
      expect(r.detected_from).toBe('type param');
      expect(r.all_categories).toEqual([...ONBOARD_TYPES]);
    }
    const mcp = Onboard.parse((await call('/api/v1/onboard', 'e1', { 'User-Agent': 'Claude-Desktop/1.0' })).body);
    expect(mcp.category).toBe('mcp');
    expect(mcp.detected_from).toBe('user-agent');
    expect(mcp).toHaveProperty('mcp_config');
    const dflt = Onboard.parse((await call('/api/v1/onboard', 'e1', { 'User-Agent': 'Mozilla/5.0' })).body);
    expect(dflt.category).toBe('browse');
    expect(dflt.detected_from).toBe('default');
    const bad = await call('/api/v1/onboard?type=soap', 'e1');
    expect(bad.status).toBe(400);
    ErrorBody.parse(bad.body);
    expect(bad.body.param).toBe('type');
  });
});

describe('receipts (spec §2.9)', () => {
  it('listing has counts, protocol and a dozen published runs', async () => {
    const r = ReceiptList.parse((await call('/api/v1/receipts', 'e1')).body);
    expect(r.ok).toBe(true);
    expect(r.counts.published_runs).toBe(r.receipts.length);
    expect(r.receipts.length).toBe(12);
    expect(Object.values(r.counts.by_platform).reduce((s, n) => s + n, 0)).toBe(12);
    expect(r.counts.distinct_models).toBe(new Set(r.receipts.map((x) => x.model_id)).size);
    expect(r.limitations.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    for (const x of r.receipts) {
      if (seen.has(x.model_id)) expect(x.verdict_vs_previous).toMatch(/^(changed|unchanged)$/);
      else expect(x.verdict_vs_previous).toBe('first_run');
      seen.add(x.model_id);
    }
  });

  it('one run: full record whose hashes are the SHA-256 of the excerpt and the verdict', async () => {
    const list = ReceiptList.parse((await call('/api/v1/receipts', 'e1')).body);
    const id = list.receipts[3].run_id;
    const { status, body } = await call(`/api/v1/receipts/${id}`, 'e1');
    expect(status).toBe(200);
    const r = ReceiptDetail.parse(body);
    expect(r.run_id).toBe(id);
    expect(r.api_calls.length).toBeGreaterThanOrEqual(3);
    for (const c of r.api_calls) expect(c.response_sha256).toBe(sha(c.response_excerpt));
    expect(r.verdict_sha256).toBe(sha(JSON.stringify(r.verdict)));
  });

  it('run_id must be an integer (400) of a published run (404)', async () => {
    const bad = await call('/api/v1/receipts/abc', 'e1');
    expect(bad.status).toBe(400);
    expect(bad.body.param).toBe('run_id');
    const missing = await call('/api/v1/receipts/1', 'e1');
    expect(missing.status).toBe(404);
    ErrorBody.parse(missing.body);
  });
});
