import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExcelFixture, PROFILES, call, type Harness } from './fixture.js';

/**
 * Issue 14 in Excel: DCPI and BRIEF cells through core's derive setting (one list answers a column),
 * the pane's setting honoured, and the OfficeRuntime.storage budget keeping derived sources usable.
 */
const STARTER = 'xl-derive-starter-01';

/** Cells recalculated together, as Excel does for a filled-down column. */
const column = (h: Harness, id: string, rows: unknown[][]) =>
  h.page.evaluate(([i, r]) => Promise.all(r.map((args) => (window as any).__call(i, args, {}))), [
    id,
    rows,
  ] as const) as Promise<Array<{ value?: any; error?: unknown }>>;

describe.each(PROFILES)('issue 14 in Excel (%s profile)', (profile) => {
  const fx = new ExcelFixture();
  beforeAll(() => fx.start({ seed: 'excel-derive', keys: { starter: STARTER }, profile }));
  afterAll(() => fx.stop());
  const real = profile === 'real';

  describe('a column of DCPI and BRIEF cells', () => {
    it('40 DCPI cells: one scores list answers them all, each equal to the service’s own', async () => {
      const list = await fx.api('/api/v1/dcpi/scores', STARTER);
      const slugs: string[] = list.scores.map((s: { market_slug: string }) => s.market_slug).slice(0, 41);
      const h = await fx.harness(STARTER);
      expect((await call(h, 'DCPI', [slugs[0], null])).value).toMatch(/BUILD|CAUTION|AVOID/); // confirms the Starter tier
      const before = h.requests();
      const cells = await column(
        h,
        'DCPI',
        slugs.slice(1).map((s) => [s, null]),
      );
      expect(h.requests() - before).toBe(1);
      const expected = await Promise.all(
        slugs.slice(1, 6).map(async (s) => (await fx.api(`/api/v1/dcpi/scores/${s}`, STARTER)).verdict),
      );
      expect(cells.slice(0, 5).map((c) => c.value)).toEqual(expected);
      expect(cells.every((c) => /^(BUILD|CAUTION|AVOID)$/.test(String(c.value)))).toBe(true);
      // The same column with the pane's setting off: every cell asks the service.
      const off = await fx.harness(STARTER, undefined, { storage: { 'dchub.derive': 'off' } });
      const sent = off.requests();
      await column(
        off,
        'DCPI',
        slugs.slice(1, 6).map((s) => [s, null]),
      );
      expect(off.requests() - sent).toBe(5);
      await h.page.close();
      await off.page.close();
    });

    it('BRIEF fields of the seed markets from one /all page; a wide QUEUE answer leaves the ledger, the indexes and the list in storage', async () => {
      const h = await fx.harness(STARTER);
      await call(h, 'DCPI', ['dallas', null]);
      const seeds = ['northern-virginia', 'dallas', 'phoenix', 'atlanta', 'chicago'];
      const all = await fx.api('/api/v1/market-brief/all', STARTER);
      // The real profile fails one brief a day to build: a cell of that market asks for its own brief.
      const failed = seeds.filter((s) =>
        all.briefs.some((b: { ok?: boolean; slug: string }) => b.ok === false && b.slug === s),
      );
      expect(failed).toHaveLength(real ? 1 : 0);
      const before = h.requests();
      const briefs = await column(
        h,
        'BRIEF',
        seeds.map((s) => [s, 'hero.verdict']),
      );
      expect(h.requests() - before).toBe(1 + failed.length);
      expect(briefs.map((b) => b.value[0][0])).toEqual(
        await Promise.all(seeds.map(async (s) => (await fx.api(`/api/v1/market-brief/${s}`, STARTER)).hero.verdict)),
      );
      await column(h, 'DCPI', [
        ['phoenix', null],
        ['reno', null],
      ]);
      const q = (await call(h, 'QUEUE', ['PJM', 100, null, null, null, null, null, null, null, null])).value as any[][];
      expect(q.length).toBeGreaterThan(1);
      // Below Developer the real service answers the queue with its 3-row tease, which answers nothing but itself.
      if (real) expect(q.at(-1)![0]).toMatch(/^Preview: 3 of [\d,]+ rows shown; withheld: capacity_mw/);
      const stored = await h.page.evaluate(() =>
        [...(window as any).__storage.entries()].map(([k, v]: [string, string]): [string, number] => [k, v.length]),
      );
      const keys = stored.map(([k]) => k);
      const answers = stored.filter(([k]) => k.startsWith('dchub:c:') && !k.includes('derive-index'));
      expect(answers.some(([k, n]) => k.includes('iso=PJM&limit=1000') && n > 400_000)).toBe(!real);
      expect(answers.reduce((n, [, c]) => n + c, 0)).toBeLessThanOrEqual(2_000_000);
      expect(keys.some((k) => k.startsWith('dchub:quota:'))).toBe(true);
      expect(keys.some((k) => k.includes(':GET ') && k.endsWith(' /api/v1/dcpi/scores'))).toBe(true);
      expect(keys.some((k) => k.includes('derive-index') && k.endsWith('/api/v1/dcpi/scores'))).toBe(true);
      expect(keys.some((k) => k.includes('derive-index') && k.endsWith('/api/v1/market-brief/all'))).toBe(true);
      // A narrower PJM question (spec: answered locally, and its closing row says from what) and more DCPI cells: no
      // call.
      const sent = h.requests();
      const narrow = (await call(h, 'QUEUE', ['PJM', 300, 36, null, null, null, null, null, null, null]))
        .value as any[][];
      if (real) expect(narrow.at(-1)![0]).toMatch(/^Preview: 3 of/);
      else
        expect(narrow.at(-1)![0]).toMatch(
          /^answered locally from a cached wider answer \(GET \/api\/v1\/interconnection-queue\/refined\?iso=PJM&limit=1000, \d+ s old\)$/,
        );
      expect(h.requests()).toBe(sent + (real ? 1 : 0));
      await column(h, 'DCPI', [
        ['denver', null],
        ['columbus', 'verdict'],
      ]);
      expect(h.requests()).toBe(sent + (real ? 1 : 0));
      await h.page.close();
    });
  });
});
