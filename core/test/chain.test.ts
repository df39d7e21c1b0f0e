import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import {
  DchubClient,
  NotFoundError,
  QuotaSpentError,
  ValidationError,
  analyzeParcel,
  chainCost,
  parcelTable,
  rankSites,
  rankedTable,
  runChain,
} from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('ranking, parcels and the chain (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const PRO = 'chain-pro';
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'chain',
      now: '2026-11-21T12:00:00Z',
      keys: `pro=${PRO}`,
      controls: true,
    });
  });
  afterAll(() => sb?.close());
  const client = (extra = {}) =>
    new DchubClient({
      baseUrl: sb.url,
      apiKey: PRO,
      tier: 'pro',
      retries: 0,
      now: () => sb.ctx.clock.nowMs(),
      ...extra,
    });

  describe('ranking and parcels', () => {
    it('ranks candidates and shapes normalized columns', async () => {
      const r = await rankSites(client(), {
        candidates: [
          { id: 'a', score: 80, km: 3 },
          { id: 'b', score: 60, km: 1 },
          { id: 'c', score: 70 },
        ],
        objectives: { score: 1, km: -1 },
        constraints: { km: { max: 10 } },
      });
      expect(r.count_ranked).toBe(2); // c fails closed: no km
      const t = rankedTable(r, ['score', 'km']);
      expect(t.columns.slice(0, 7)).toEqual(['rank', 'id', 'objective_score', 'score', 'km', 'norm_score', 'norm_km']);
      expect(t.rows[0][0]).toBe(1);
    });
    it('checks ranking and parcel arguments before spending a call', async () => {
      const c = client();
      await expect(rankSites(c, { candidates: [], objectives: { x: 1 } })).rejects.toBeInstanceOf(ValidationError);
      await expect(analyzeParcel(c, { type: 'Polygon', coordinates: [[[0, 0]]] })).rejects.toBeInstanceOf(
        ValidationError,
      );
      expect(c.requestsSent).toBe(0);
    });
    it('analyzes a parcel', async () => {
      const square = {
        type: 'Polygon',
        coordinates: [
          [
            [-77.5, 39.0],
            [-77.49, 39.0],
            [-77.49, 39.01],
            [-77.5, 39.01],
            [-77.5, 39.0],
          ],
        ],
      };
      const p = await analyzeParcel(client(), square, 100);
      expect(p.contiguous).toBe(true);
      expect(p.total_acres).toBeGreaterThan(200);
      expect(parcelTable(p).rows).toContainEqual(['site_evaluation_handoff.analyze_site.capacity_mw', 100]);
    });
  });

  describe('the chain: queue → site score → ranking', () => {
    it('says what it will cost, runs within the budget, reports progress', async () => {
      const c = client();
      const cost = await chainCost(c, { maxSites: 5 });
      expect(cost).toMatchObject({ worstCase: 7, affordable: true });
      const steps: string[] = [];
      const r = await runChain(
        c,
        {
          filters: { iso: 'ERCOT', min_mw: 200, geocoded_only: true, limit: 50 },
          objectives: { overall_score: 1, fiber_km: -1 },
          maxSites: 5,
          top_k: 3,
        },
        (p) => steps.push(p.step),
      );
      expect(r.scored).toBe(5);
      expect(r.callsSpent).toBe(7);
      expect(r.table.rows).toHaveLength(3);
      expect(r.table.columns).toEqual(
        expect.arrayContaining([
          'rank',
          'id',
          'overall_score',
          'fiber_km',
          'norm_overall_score',
          'norm_fiber_km',
          'project_name',
        ]),
      );
      expect(steps[0]).toBe('queue');
      expect(steps.at(-1)).toBe('done');
      expect(steps.filter((s) => s === 'score')).toHaveLength(5);
      // Again: queue and scores come from the cache, only the ranking is sent.
      const again = await runChain(c, {
        filters: { iso: 'ERCOT', min_mw: 200, geocoded_only: true, limit: 50 },
        objectives: { overall_score: 1, fiber_km: -1 },
        maxSites: 5,
      });
      expect(again.callsSpent).toBe(1);
    });
    it('stops scoring before exceeding a small budget', async () => {
      const c = client();
      const r = await runChain(c, {
        filters: { iso: 'MISO', geocoded_only: true, limit: 30 },
        objectives: { overall_score: 1 },
        maxSites: 10,
        budget: 5,
      });
      expect(r.callsSpent).toBeLessThanOrEqual(5);
      expect(r.scored).toBe(3);
      expect(r.skippedForBudget).toBe(7);
      expect(r.table.note).toMatch(/not scored to stay within the budget of 5 calls/);
    });
    it('refuses to start with no calls left', async () => {
      await expect(
        runChain(client(), { filters: { iso: 'SPP' }, objectives: { overall_score: 1 }, budget: 0 }),
      ).rejects.toBeInstanceOf(QuotaSpentError);
    });
    it('a time-to-power cut that leaves nothing says the queue’s explanation, never a spent allowance; a run carries what the queue excluded', async () => {
      const empty = runChain(client(), {
        filters: { iso: 'PJM', max_ttp_months: 30, geocoded_only: true },
        objectives: { overall_score: 1 },
      });
      await expect(empty).rejects.toBeInstanceOf(NotFoundError);
      const err = (await empty.catch((e: unknown) => e)) as NotFoundError;
      expect(err.message).toMatch(/^no queued project with coordinates survives these filters/);
      expect(err.explanations[0]).toMatch(
        /^excluded by max_ttp_months 30 \(average time to power longer\): PJM \([\d.]+ months\)$/,
      );
      expect(err.explanations[1]).toMatch(/max_ttp_months/);
      const r = await runChain(client(), {
        filters: { iso: 'PJM,SPP', max_ttp_months: 30, geocoded_only: true },
        objectives: { overall_score: 1 },
        maxSites: 2,
      });
      expect(r.scored).toBe(2);
      expect(r.explanations[0]).toMatch(/^excluded by max_ttp_months 30 \(average time to power longer\): PJM /);
    });
  });
});
