import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DirectoryStore } from '../src/node.js';
import * as core from '../src/index.js';
import { deriveQueueAnswer, whyNotWider } from '../src/derive/queue.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('queue subsumption (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const ENT = 'derive-queue-enterprise';
  const FREE = 'derive-queue-free';
  const DEV = 'derive-queue-developer';
  const NOW = '2026-11-21T12:00:00Z';

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'derive-queue',
      now: NOW,
      keys: `enterprise=${ENT},free=${FREE},developer=${DEV}`,
      limits: false,
    });
  });
  afterAll(() => sb?.close());

  type Opts = ConstructorParameters<typeof core.DchubClient>[0];
  const client = (o: Opts = {}) =>
    new core.DchubClient({
      baseUrl: sb.url,
      apiKey: ENT,
      tier: 'enterprise',
      retries: 0,
      now: () => sb.ctx.clock.nowMs(),
      ...o,
    });
  const direct = async (q: string, key: string | null = ENT) =>
    core.QueueResult.parse(
      await (await fetch(`${sb.url}${core.QUEUE_PATH}?${q}`, { headers: key ? { 'X-API-Key': key } : {} })).json(),
    );
  const filters = (f: core.QueueFiltersInput) => core.parseParams(core.QueueFilters, f);

  describe('queue subsumption: which wider answers contain a question', () => {
    const g = filters({
      iso: 'PJM,MISO',
      min_mw: 100,
      max_ttp_months: 48,
      fuel_type: 'gas',
      status: 'all',
      max_fiber_km: 100,
    });
    it('each predicate at least as strict passes; each looser one names itself', () => {
      expect(
        whyNotWider(
          g,
          filters({
            iso: 'MISO',
            min_mw: 200,
            max_ttp_months: 36,
            fuel_type: 'natural gas',
            status: 'active',
            baseload_only: true,
            max_fiber_km: 50,
            geocoded_only: true,
          }),
        ),
      ).toBeUndefined();
      expect(
        whyNotWider(
          g,
          filters({ iso: 'MISO,ERCOT', min_mw: 200, max_ttp_months: 36, fuel_type: 'gas', max_fiber_km: 50 }),
        ),
      ).toMatch(/^iso/);
      expect(
        whyNotWider(g, filters({ iso: 'MISO', min_mw: 50, max_ttp_months: 36, fuel_type: 'gas', max_fiber_km: 50 })),
      ).toMatch(/^min_mw/);
      expect(whyNotWider(g, filters({ iso: 'MISO', min_mw: 200, fuel_type: 'gas', max_fiber_km: 50 }))).toMatch(
        /^max_ttp_months/,
      );
      expect(
        whyNotWider(
          g,
          filters({ iso: 'MISO', min_mw: 200, max_ttp_months: 36, fuel_type: 'gas,solar', max_fiber_km: 50 }),
        ),
      ).toMatch(/^fuel_type/);
      expect(
        whyNotWider(g, filters({ iso: 'MISO', min_mw: 200, max_ttp_months: 36, fuel_type: 'gas', max_fiber_km: 150 })),
      ).toMatch(/^max_fiber_km/);
      const active = filters({ iso: 'PJM' });
      expect(whyNotWider(active, filters({ iso: 'PJM', status: 'all' }))).toMatch(/^status/);
      expect(whyNotWider(active, filters({ iso: 'PJM', status: 'Withdrawn' }))).toMatch(/^status/);
      expect(whyNotWider(filters({ status: 'study' }), filters({ status: 'system impact study' }))).toBeUndefined();
      expect(whyNotWider(filters({ baseload_only: true }), filters({}))).toMatch(/^baseload_only/);
      expect(whyNotWider(filters({ geocoded_only: true }), filters({}))).toMatch(/^geocoded_only/);
    });

    it('refuses an incomplete source, a preview, and a cut it cannot see through', async () => {
      const g1 = filters({ iso: 'PJM', limit: 100 });
      const cut = await direct(core.queueSearchParams(g1).toString());
      expect(deriveQueueAnswer(cut, g1, filters({ iso: 'PJM', min_mw: 500 }))).toEqual({
        ok: false,
        reason: 'incomplete: the limit cut it',
      });
      const preview = await direct('iso=NYISO', null);
      expect(preview._gated).toBe(true);
      const d = deriveQueueAnswer(preview, filters({ iso: 'NYISO' }), filters({ iso: 'NYISO', limit: 3 }));
      expect(d).toEqual({ ok: false, reason: 'a gated preview answers nothing but itself' });
      // Only ERCOT rows in the source: MISO's wait is unknown, so the time-to-power report cannot be rebuilt.
      const g2 = filters({ iso: 'ERCOT,SPP', fuel_type: 'GAS - PEAKER', limit: 1000 });
      const a2 = await direct(core.queueSearchParams(g2).toString());
      expect(a2.results.every((r) => r.iso === 'ERCOT')).toBe(true);
      expect(
        deriveQueueAnswer(a2, g2, filters({ iso: 'ERCOT,SPP', fuel_type: 'GAS - PEAKER', max_ttp_months: 30 })),
      ).toMatchObject({
        ok: false,
        reason: /wait of SPP/,
      });
      // A source whose echo this client does not recognize is not trusted.
      const g3 = filters({ iso: 'SPP', limit: 1000 });
      const a3 = await direct(core.queueSearchParams(g3).toString());
      const odd = { ...a3, filters_applied: { ...a3.filters_applied, min_mw: 0 } };
      expect(deriveQueueAnswer(odd, g3, filters({ iso: 'SPP', min_mw: 10 }))).toMatchObject({
        ok: false,
        reason: /filters_applied/,
      });
      // A survivor without the field a predicate reads.
      const bare = { ...a3, results: a3.results.map(({ fiber_km: _f, ...r }) => r) };
      expect(deriveQueueAnswer(bare, g3, filters({ iso: 'SPP', max_fiber_km: 30 }))).toMatchObject({
        ok: false,
        reason: /^max_fiber_km: a survivor lacks/,
      });
    });
  });

  describe('queue answers through the client (exact mode)', () => {
    it('a stricter question is answered from the cached wider answer, marked as derived, equal to the service', async () => {
      const c = client({ derive: 'exact' });
      const wide = await core.refineQueue(c, { iso: 'PJM', limit: 1000 });
      expect(wide.count_total_matching).toBe(wide.count_returned);
      expect(c.requestsSent).toBe(1);
      sb.ctx.clock.advance(90);
      const asks: core.QueueFiltersInput[] = [
        { iso: 'PJM', min_mw: 200 },
        { iso: 'PJM', min_mw: 300, max_ttp_months: 36 },
        { iso: 'PJM', min_mw: 250, fuel_type: 'gas' },
        { iso: 'PJM', baseload_only: true, geocoded_only: true, max_fiber_km: 40, limit: 7 },
        { iso: 'pjm', max_ttp_months: 60, fuel_type: 'Solar;Storage', limit: 1000 },
      ];
      for (const ask of asks) {
        const r = await core.refineQueue(c, ask);
        const meta = core.fetchMeta(r);
        expect(meta?.derivedFrom).toMatchObject({ path: core.QUEUE_PATH, query: 'iso=PJM&limit=1000' });
        expect(meta?.derivedFrom?.ageMs).toBeGreaterThanOrEqual(90_000);
        expect(meta?.derivedFrom?.ageMs).toBeLessThan(120_000);
        expect(meta).toMatchObject({ fromCache: true, stale: false, preview: false, ageMs: meta?.derivedFrom?.ageMs });
        expect(r).toStrictEqual(await direct(core.queueSearchParams(filters(ask)).toString()));
      }
      expect(c.requestsSent).toBe(1);
      // The cut advice is rebuilt as the service words it.
      const cut = await core.refineQueue(c, { iso: 'PJM', min_mw: 300, max_ttp_months: 36 });
      expect(cut._error_mitigation?.suggested_params).toEqual({ max_ttp_months: 50.5 });
      expect(core.fetchMeta(cut)?.explanations).toContainEqual(expect.stringMatching(/at least 50\.5/));
      // A question the source cannot hold is fetched.
      await core.refineQueue(c, { iso: 'PJM,MISO', min_mw: 200 });
      expect(c.requestsSent).toBe(2);
    });

    it('off: every distinct question is its own request', async () => {
      const c = client({ derive: 'off' });
      await core.refineQueue(c, { iso: 'SPP', limit: 1000 });
      const r = await core.refineQueue(c, { iso: 'SPP', min_mw: 100 });
      expect(core.fetchMeta(r)?.derivedFrom).toBeUndefined();
      expect(c.requestsSent).toBe(2);
    });

    it('an exact cached answer wins over a derivation; cache: false and refresh go to the service', async () => {
      const c = client({ derive: 'exact' });
      await core.refineQueue(c, { iso: 'NYISO', limit: 1000 });
      await core.refineQueue(c, { iso: 'NYISO', min_mw: 50 }, { refresh: true });
      expect(c.requestsSent).toBe(2);
      const again = await core.refineQueue(c, { iso: 'NYISO', min_mw: 50 });
      expect(core.fetchMeta(again)?.derivedFrom).toBeUndefined();
      await core.refineQueue(c, { iso: 'NYISO', min_mw: 60 }, { cache: false });
      expect(c.requestsSent).toBe(3);
    });

    it('formula value preview (cache only) derives too, and says nothing was sent', async () => {
      const c = client({ derive: 'exact' });
      await core.refineQueue(c, { iso: 'ISO-NE', limit: 1000 });
      const r = await core.refineQueue(c, { iso: 'ISONE', min_mw: 20 }, { cacheOnly: true });
      expect(core.fetchMeta(r)?.derivedFrom?.query).toBe('iso=ISO-NE&limit=1000');
      await expect(core.refineQueue(c, { iso: 'MISO' }, { cacheOnly: true })).rejects.toBeInstanceOf(
        core.NotCachedError,
      );
      expect(c.requestsSent).toBe(1);
    });

    it('the sources outlive the process: a directory store serves a new client', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-derive-'));
      try {
        const make = () => client({ derive: 'exact', cache: new core.ResponseCache(new DirectoryStore(dir)) });
        await core.refineQueue(make(), { iso: 'CAISO', status: 'all', limit: 1000 });
        const c2 = make();
        const r = await core.refineQueue(c2, { iso: 'CAISO', status: 'withdrawn', min_mw: 100 });
        expect(c2.requestsSent).toBe(0);
        expect(core.fetchMeta(r)?.derivedFrom?.query).toBe('iso=CAISO&status=all&limit=1000');
        expect(r).toStrictEqual(await direct('iso=CAISO&min_mw=100&status=withdrawn'));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('when the allowance is spent, a stale wider answer serves, marked stale and derived', async () => {
      const ledger = new core.QuotaLedger(new core.MemoryStore(), 'derive-spent', {
        tier: 'free',
        confirmed: true,
        now: () => sb.ctx.clock.nowMs(),
      });
      // A small plan's full answer: a free key's on the spec profile; the real one teases free keys (notes §1.3).
      const c = client({ apiKey: profile === 'real' ? DEV : FREE, tier: undefined, ledger, derive: 'exact' });
      await core.refineQueue(c, { iso: 'SPP', status: 'all', limit: 1000 });
      sb.ctx.clock.advance(8 * 86_400); // past candidate_ttl_days: the source is stale
      await ledger.exhaust();
      const r = await core.refineQueue(c, { iso: 'SPP', status: 'all', min_mw: 300 });
      expect(core.fetchMeta(r)).toMatchObject({
        stale: true,
        reason: 'daily limit reached',
        derivedFrom: { query: 'iso=SPP&status=all&limit=1000' },
      });
      await expect(core.refineQueue(c, { iso: 'MISO', min_mw: 300 })).rejects.toBeInstanceOf(core.QuotaSpentError);
    });
  });
});
