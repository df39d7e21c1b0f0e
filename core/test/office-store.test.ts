import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { OfficeRuntimeStore, createCallerClient, dcpiScoreFields, fetchMeta, refineQueue } from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

/** An OfficeRuntime.storage stand-in: strings by key, as Excel keeps them. */
function officeStorage() {
  const items = new Map<string, string>();
  return {
    items,
    storage: {
      getItem: async (k: string) => items.get(k) ?? null,
      setItem: async (k: string, v: string) => void items.set(k, v),
      removeItem: async (k: string) => void items.delete(k),
    },
  };
}

describe('OfficeRuntimeStore: the budget of cached answers', () => {
  it('evicts the least recently used (a read counts), never the ledger or a derive index', async () => {
    const { items, storage } = officeStorage();
    const s = new OfficeRuntimeStore(storage, 1000);
    await s.set('dchub:quota:host:k1', '{"used":1}');
    await s.set('dchub:c:k1:derive-index host/api/v1/dcpi/scores', '[{"q":"","at":1}]');
    for (let i = 0; i < 3; i++) await s.set(`dchub:c:k1:GET /a${i}`, 'a'.repeat(300));
    expect(await s.get('dchub:c:k1:GET /a0')).toBe('a'.repeat(300)); // read: now the most recent
    await s.set('dchub:c:k1:GET /b', 'b'.repeat(300));
    expect(items.has('dchub:c:k1:GET /a1')).toBe(false); // least recently used went first
    expect(items.has('dchub:c:k1:GET /a0')).toBe(true);
    // A large answer evicts answers only: bookkeeping stays, and does not count.
    await s.set('dchub:c:k1:GET /wide', 'w'.repeat(500));
    expect(items.get('dchub:quota:host:k1')).toBe('{"used":1}');
    expect(items.has('dchub:c:k1:derive-index host/api/v1/dcpi/scores')).toBe(true);
    expect(await s.usedChars()).toBeLessThanOrEqual(1000);
    expect(await s.keys('dchub:c:')).toContain('dchub:c:k1:derive-index host/api/v1/dcpi/scores');
  });

  it('one answer takes at most half the budget; a too-large new version drops the old one', async () => {
    const { items, storage } = officeStorage();
    const s = new OfficeRuntimeStore(storage, 1000);
    await s.set('dchub:c:k:GET /x', 'x'.repeat(400));
    await s.set('dchub:c:k:GET /small', 's');
    await s.set('dchub:c:k:GET /x', 'y'.repeat(501));
    expect(items.has('dchub:c:k:GET /x')).toBe(false);
    expect(await s.get('dchub:c:k:GET /small')).toBe('s');
    expect(await s.keys('dchub:c:')).toEqual(['dchub:c:k:GET /small']);
  });

  it('concurrent writes keep one consistent index (formulas save together)', async () => {
    const { items, storage } = officeStorage();
    const s = new OfficeRuntimeStore(storage, 10_000);
    await Promise.all(Array.from({ length: 40 }, (_, i) => s.set(`dchub:c:k:GET /c${i}`, 'c'.repeat(100))));
    const index = JSON.parse(items.get(OfficeRuntimeStore.INDEX)!) as Array<[string, number]>;
    expect(index).toHaveLength(40);
    expect(await new OfficeRuntimeStore(storage, 10_000).keys('dchub:c:')).toHaveLength(40);
  });
});

describe.each(SANDBOX_PROFILES)('OfficeRuntimeStore against the sandbox (%s profile)', (profile) => {
  describe('Excel’s store keeps derived sources usable (2 M characters, widened queue answers of ~700 K)', () => {
    let sb: RunningSandbox;
    // A small plan that widens by default: Starter; on the real profile, where Starter gets the 3-row
    // queue tease (which answers nothing but itself), the Developer plan, the smallest with full answers.
    const TIER = profile === 'real' ? 'developer' : 'starter';
    const KEY = `office-store-${TIER}`;
    beforeAll(async () => {
      sb = await startSandbox({
        port: 0,
        profile,
        seed: 'office-store',
        now: '2026-11-21T12:00:00Z',
        keys: `${TIER}=${KEY}`,
      });
    });
    afterAll(() => sb?.close());

    it('after six widened queue answers the DCPI list a column reads, the ledger and the indexes stay; a restart answers locally', async () => {
      const { items, storage } = officeStorage();
      const session = () =>
        createCallerClient({
          baseUrl: sb.url,
          apiKey: KEY,
          store: new OfficeRuntimeStore(storage, 2_000_000),
          now: () => sb.ctx.clock.nowMs(),
        });
      const { client, ledgerId } = session();
      const markets = ['phoenix', 'atlanta', 'chicago', 'reno', 'denver', 'columbus', 'portland'];
      const column = async (c: typeof client) => Promise.all(markets.map((m) => dcpiScoreFields(c, m, 'verdict')));
      await dcpiScoreFields(client, 'dallas', 'verdict'); // the first answer confirms the tier
      await column(client); // then one list serves the column
      const sizes: number[] = [];
      for (const iso of ['PJM', 'MISO', 'ERCOT', 'CAISO', 'SPP', 'NYISO']) {
        const before = await new OfficeRuntimeStore(storage).usedChars();
        const q = await refineQueue(client, { iso, min_mw: 100 });
        expect(fetchMeta(q)?.derivedFrom?.query).toBe(`iso=${iso}&limit=1000`);
        sizes.push((await new OfficeRuntimeStore(storage).usedChars()) - before);
        await column(client); // the column recalculates: the list is read, so it is recently used
      }
      expect(Math.max(...sizes)).toBeGreaterThan(400_000);
      const kept = [...items.keys()];
      const answers = kept.filter((k) => k.startsWith('dchub:c:') && !k.includes('derive-index'));
      expect(answers.reduce((n, k) => n + items.get(k)!.length, 0)).toBeLessThanOrEqual(2_000_000);
      expect(kept).toContain(`dchub:quota:${ledgerId}`);
      expect(kept.some((k) => k.includes('derive-index') && k.endsWith('/api/v1/dcpi/scores'))).toBe(true);
      expect(kept.some((k) => k.includes('derive-index') && k.endsWith('/api/v1/interconnection-queue/refined'))).toBe(
        true,
      );
      expect(kept.some((k) => k.includes(':GET ') && k.endsWith(' /api/v1/dcpi/scores'))).toBe(true);
      expect(kept.some((k) => k.includes('iso=NYISO&limit=1000'))).toBe(true);
      expect(kept.some((k) => k.includes('iso=PJM&limit=1000'))).toBe(false); // the oldest wide answer went

      // Excel restarts: a new runtime over the same storage answers the column and a narrower NYISO question locally.
      const next = session().client;
      const verdicts = await column(next);
      expect(verdicts.every((v) => typeof v.verdict === 'string')).toBe(true);
      const narrow = await refineQueue(next, { iso: 'NYISO', min_mw: 250 });
      expect(fetchMeta(narrow)?.derivedFrom?.query).toBe('iso=NYISO&limit=1000');
      expect(next.requestsSent).toBe(0);
    });
  });
});
