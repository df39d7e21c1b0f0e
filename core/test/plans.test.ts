import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import {
  BRIEF_BULK_CAP,
  DAILY_REQUESTS,
  MCP_DAILY_CALLS as SANDBOX_MCP,
  TIERS,
} from '../../sandbox/src/policy/tiers.js';
import { MARKET_LIST_ROWS as SANDBOX_LIST_ROWS } from '../../sandbox/src/domain/markets.js';
import {
  DAILY_ALLOWANCE,
  MCP_DAILY_ALLOWANCE,
  UNLIMITED,
  atLeastPlan,
  briefBulkDailyCap,
  briefMarketsInScope,
  briefPageMax,
  isBriefPro,
  mcpDailyCalls,
  normalizeTier,
  restDailyRequests,
  BRIEF_BULK_DAILY_CAP,
  MARKET_LIST_ROWS,
  MCP_DAILY_CALLS,
  REST_DAILY_REQUESTS,
} from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe('the plans table', () => {
  it('reads any spelling of a tier; internal plans read as Enterprise, an unknown key as Free', () => {
    expect(normalizeTier(' ENTERPRISE ')).toBe('enterprise');
    expect(normalizeTier(undefined)).toBe('anonymous');
    expect(restDailyRequests('PRO')).toBe(2000);
    expect(restDailyRequests('research_seed')).toBe(100_000);
    expect(restDailyRequests('admin')).toBe(100_000);
    expect(restDailyRequests('some-new-plan')).toBe(10);
    expect(briefPageMax('Founding')).toBe(500);
    expect(briefPageMax('developer')).toBe(50); // developer is not Pro for briefs (notes §2.29)
    expect(isBriefPro('research_seed')).toBe(true);
    expect(briefMarketsInScope('pro')).toBe(15);
    expect(briefMarketsInScope('enterprise')).toBe(Infinity);
    expect(briefBulkDailyCap('anonymous')).toBe(3);
    expect(mcpDailyCalls('starter')).toBe(10_000);
    expect(atLeastPlan('founding', 'pro')).toBe(true);
    expect(atLeastPlan('identified', 'starter')).toBe(false);
  });

  it('core’s ledger and the sandbox read the same numbers', () => {
    expect(DAILY_ALLOWANCE).toEqual(REST_DAILY_REQUESTS);
    for (const [tier, n] of Object.entries(MCP_DAILY_CALLS))
      expect(MCP_DAILY_ALLOWANCE[tier]).toBe(Number.isFinite(n) ? n : UNLIMITED);
    for (const t of TIERS) {
      expect(DAILY_REQUESTS[t]).toBe(REST_DAILY_REQUESTS[t]);
      expect(BRIEF_BULK_CAP[t]).toBe(BRIEF_BULK_DAILY_CAP[t]);
      expect(SANDBOX_MCP[t]).toBe(MCP_DAILY_CALLS[t]);
      expect(SANDBOX_LIST_ROWS[t]).toBe(MARKET_LIST_ROWS[t]);
    }
  });
});

describe.each(SANDBOX_PROFILES)('plans (%s profile)', (profile) => {
  describe('the sandbox serves the plans table', () => {
    let sb: RunningSandbox;
    const keys = {
      free: 'plans-free',
      starter: 'plans-starter',
      developer: 'plans-dev',
      pro: 'plans-pro',
      enterprise: 'plans-ent',
    } as const;
    beforeAll(async () => {
      sb = await startSandbox({
        port: 0,
        profile,
        seed: 'plans',
        now: '2026-11-21T12:00:00Z',
        keys: Object.entries(keys)
          .map(([t, k]) => `${t}=${k}`)
          .join(','),
      });
    });
    afterAll(() => sb?.close());
    const get = (path: string, key?: string) => fetch(`${sb.url}${path}`, { headers: key ? { 'X-API-Key': key } : {} });

    it('per tier: the daily limit header, the brief scope and the largest brief page', async () => {
      for (const tier of TIERS) {
        const key = tier === 'anonymous' ? undefined : keys[tier];
        const res = await get('/api/v1/market-brief/all', key);
        expect(res.status).toBe(200);
        if (profile === 'real' && tier === 'anonymous') {
          // The real service states no daily limit to a keyless caller, only the per-minute tokens left (notes §1.5).
          expect(res.headers.get('x-ratelimit-limit')).toBeNull();
          expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(20);
        } else {
          expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(restDailyRequests(tier));
        }
        const body = (await res.json()) as { total_available: number };
        expect(body.total_available).toBe(Math.min(briefMarketsInScope(tier), 232));
        const max = briefPageMax(tier);
        expect((await get(`/api/v1/market-brief/all?limit=${max}`, key)).status).toBe(200);
        if (max < 500) expect((await get(`/api/v1/market-brief/all?limit=${max + 1}`, key)).status).toBe(400);
      }
    });

    it('the bulk daily caps, per endpoint: anonymous after 3 calls, developer after 50', async () => {
      for (let i = 0; i < briefBulkDailyCap('anonymous'); i++)
        expect((await get('/api/v1/market-brief/all.csv')).status).toBe(200);
      const capped = await get('/api/v1/market-brief/all.csv');
      expect(capped.status).toBe(429);
      expect(await capped.json()).toMatchObject({
        error: 'daily_cap_exceeded',
        limit: `${briefBulkDailyCap('anonymous')}/day`,
      });
      const n = briefBulkDailyCap('developer');
      let status = 200;
      let calls = 0;
      while (status === 200 && calls <= n) {
        status = (await get('/api/v1/market-brief/diff?since=2026-11-20', keys.developer)).status;
        calls++;
      }
      expect(status).toBe(429);
      expect(calls).toBe(n + 1);
    });
  });
});
