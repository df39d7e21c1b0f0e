import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import * as core from '../src/index.js';
import { recordingClient, type RecordingOptions } from './support/recording-client.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('widening (%s profile)', (profile) => {
  let sb: RunningSandbox;
  // A small plan that widens by default: Free; on the real profile, where a free key gets the 3-row
  // queue tease (which answers nothing but itself), the Developer plan, the smallest with full answers.
  const TIER = profile === 'real' ? 'developer' : 'free';
  const SMALL = `derive-widen-${TIER}`;
  const PRO = 'derive-widen-pro';

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'derive-widen',
      now: '2026-11-21T12:00:00Z',
      keys: `${TIER}=${SMALL},pro=${PRO}`,
      limits: false,
    });
  });
  afterAll(() => sb?.close());

  const client = (o: RecordingOptions = {}) => recordingClient(sb, { apiKey: SMALL, tier: TIER, ...o });
  const direct = async (f: core.QueueFiltersInput, key = SMALL) =>
    core.QueueResult.parse(
      await (
        await fetch(`${sb.url}${core.QUEUE_PATH}?${core.queueSearchParams(core.parseParams(core.QueueFilters, f))}`, {
          headers: { 'X-API-Key': key },
        })
      ).json(),
    );

  describe('the derive setting and its default per tier', () => {
    it('keyless exact, small allowances widen, large ones exact; parsing of the setting', () => {
      expect(core.defaultDeriveMode('anonymous')).toBe('exact');
      expect(core.defaultDeriveMode(undefined)).toBe('exact');
      for (const t of ['free', 'identified', 'starter', 'developer']) expect(core.defaultDeriveMode(t)).toBe('widen');
      for (const t of ['pro', 'founding', 'enterprise']) expect(core.defaultDeriveMode(t)).toBe('exact');
      expect(core.defaultDeriveMode('research_seed', 100)).toBe('widen');
      expect(core.defaultDeriveMode('research_seed', 5000)).toBe('exact');
      expect(core.parseDeriveMode('WIDEN')).toBe('widen');
      expect(core.parseDeriveMode(false)).toBe('off');
      expect(core.parseDeriveMode('no')).toBe('off');
      expect(core.parseDeriveMode('')).toBeUndefined();
      expect(core.parseDeriveMode('sometimes')).toBeUndefined();
    });
  });

  describe('widen before you spend', () => {
    it('a small plan sends its ISO set and status with limit 1000 once; every stricter question on it is then local', async () => {
      const { c, sent } = client();
      const asks: core.QueueFiltersInput[] = [
        { iso: 'MISO', min_mw: 200 },
        { iso: 'MISO', min_mw: 300, max_ttp_months: 36 },
        { iso: 'MISO', min_mw: 250, fuel_type: 'gas' },
        { iso: 'MISO', max_ttp_months: 30 },
        { iso: 'MISO' },
        { iso: 'MISO', geocoded_only: true, max_fiber_km: 25, limit: 10 },
      ];
      for (const ask of asks) {
        const r = await core.refineQueue(c, ask);
        expect(core.fetchMeta(r)?.derivedFrom?.query).toBe('iso=MISO&limit=1000');
        expect(r).toStrictEqual(await direct(ask));
      }
      expect(sent).toEqual([`${core.QUEUE_PATH}?iso=MISO&limit=1000`]);
      // The first answer was fetched just now (fromCache false); later ones came from the cache.
    });

    it('cells computed at once share the one wide request, whatever their order', async () => {
      const { c, sent } = client();
      const asks = Array.from({ length: 30 }, (_, i) => ({
        iso: 'ERCOT',
        min_mw: 10 * i,
        fuel_type: i % 3 ? undefined : 'solar',
        limit: 5 + i,
      }));
      const results = await Promise.all(asks.map((a) => core.refineQueue(c, a)));
      expect(sent).toEqual([`${core.QUEUE_PATH}?iso=ERCOT&limit=1000`]);
      for (let i = 0; i < asks.length; i += 7) expect(results[i]).toStrictEqual(await direct(asks[i]));
    });

    it('an incomplete wide answer falls back to the exact request, and is not tried again', async () => {
      const { c, sent } = client();
      const first = await core.refineQueue(c, { status: 'all', min_mw: 1000 });
      expect(sent).toEqual([`${core.QUEUE_PATH}?status=all&limit=1000`, `${core.QUEUE_PATH}?min_mw=1000&status=all`]);
      expect(core.fetchMeta(first)?.derivedFrom).toBeUndefined();
      expect(first).toStrictEqual(await direct({ status: 'all', min_mw: 1000 }));
      await core.refineQueue(c, { status: 'all', min_mw: 1500 });
      // The wide answer is cached (incomplete): only the exact question is sent.
      expect(sent.slice(2)).toEqual([`${core.QUEUE_PATH}?min_mw=1500&status=all`]);
    });

    it('a failed wide request falls back to the exact one', async () => {
      const { c, sent } = client({ fail: (url) => url.includes('limit=1000') });
      const r = await core.refineQueue(c, { iso: 'SPP', min_mw: 100 });
      expect(sent).toEqual([`${core.QUEUE_PATH}?iso=SPP&limit=1000`, `${core.QUEUE_PATH}?iso=SPP&min_mw=100`]);
      expect(r).toStrictEqual(await direct({ iso: 'SPP', min_mw: 100 }));
    });

    it('a key whose tier is not confirmed yet asks exactly first, then widens once the service named its tier', async () => {
      // The tier is named by the rate-limit headers, which a sandbox sends only with its limits on.
      const limited = await startSandbox({
        port: 0,
        profile,
        seed: 'derive-widen',
        now: '2026-11-21T12:00:00Z',
        keys: `${TIER}=${SMALL}`,
      });
      const { c, sent } = recordingClient(limited, { apiKey: SMALL });
      try {
        await core.refineQueue(c, { iso: 'CAISO', min_mw: 100 });
        await core.refineQueue(c, { iso: 'CAISO', min_mw: 200 });
        await core.refineQueue(c, { iso: 'CAISO', min_mw: 50 });
        expect(sent).toEqual([`${core.QUEUE_PATH}?iso=CAISO&min_mw=100`, `${core.QUEUE_PATH}?iso=CAISO&limit=1000`]);
      } finally {
        await limited.close();
      }
    });

    it('Pro asks exactly by default; keyless too, and a tier that gets previews stops widening', async () => {
      const pro = client({ apiKey: PRO, tier: 'pro' });
      await core.refineQueue(pro.c, { iso: 'SPP', min_mw: 100 });
      expect(pro.sent).toEqual([`${core.QUEUE_PATH}?iso=SPP&min_mw=100`]);

      const anon = client({ apiKey: undefined, tier: undefined });
      await core.refineQueue(anon.c, { iso: 'SPP', min_mw: 100 });
      expect(anon.sent).toEqual([`${core.QUEUE_PATH}?iso=SPP&min_mw=100`]);

      const forced = client({ apiKey: undefined, tier: undefined, derive: 'widen' });
      const p = await core.refineQueue(forced.c, { iso: 'NYISO', min_mw: 100 });
      expect(p._gated).toBe(true);
      expect(forced.sent).toEqual([
        `${core.QUEUE_PATH}?iso=NYISO&limit=1000`,
        `${core.QUEUE_PATH}?iso=NYISO&min_mw=100`,
      ]);
      const p2 = await core.refineQueue(forced.c, { iso: 'CAISO', min_mw: 100 });
      expect(core.fetchMeta(p2)?.preview).toBe(true);
      expect(forced.sent.slice(2)).toEqual([`${core.QUEUE_PATH}?iso=CAISO&min_mw=100`]);
    });

    it('an aborted call is not retried as the exact request', async () => {
      const { c, sent } = client();
      const ctl = new AbortController();
      ctl.abort();
      await expect(core.refineQueue(c, { iso: 'PJM', min_mw: 5 }, { signal: ctl.signal })).rejects.toThrow(/abort/i);
      expect(sent.filter((u) => u.includes('min_mw=5'))).toEqual([]);
    });
  });
});
