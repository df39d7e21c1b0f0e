import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExcelFixture, HOSTS, PROFILES, call, range, type Harness } from './fixture.js';

/**
 * The card functions (MARKETCARD, MARKETCARDS, SITECARD, QUEUECARDS, and RANK over a range of
 * cards) from the built bundle under the strict model: every card a result holds is checked by
 * Excel's rules for cell values at the host's API level (`call` fails on any broken rule), for a
 * host with ExcelApi 1.19, one with only 1.16, and one without cards (the table answers instead).
 * Edge cases are in cards-edges.browser.test.ts.
 */
const KEYS = { pro: 'xl-cards-pro-000001', enterprise: 'xl-cards-ent-000001' };
const QUEUE_ARGS = ['PJM,MISO', 200, 36, null, null, null, null, null, null];
type Card = { type: string; text: string; properties: Record<string, any>; layouts: any; provider?: unknown };

describe.each(PROFILES)('cards (%s profile)', (profile) => {
  const fx = new ExcelFixture();
  beforeAll(() => fx.start({ seed: 'excel-cards', keys: KEYS, profile }));
  afterAll(() => fx.stop());

  describe.each([
    ['ExcelApi 1.19', HOSTS.current, 'Double'],
    ['CustomFunctionsRuntime 1.4 without ExcelApi 1.19', HOSTS.cards116, 'FormattedNumber'],
  ] as const)('the README examples on a host with %s', (_what, host, numberType) => {
    let h: Harness;
    beforeAll(async () => {
      h = await fx.harness(KEYS.pro, undefined, { host });
    });
    afterAll(() => h.page.close());

    it('MARKETCARD("dallas"): one card, its text "Dallas · verdict · composite", the DCPI numbers with their formats', async () => {
      const api = await fx.api('/api/v1/dcpi/scores/dallas', KEYS.pro);
      const r = await call(h, 'MARKETCARD', ['dallas']);
      expect(r.value).toHaveLength(1);
      const card = r.value[0][0] as Card;
      expect(card.type).toBe('Entity');
      expect(card.text).toBe(`Dallas · ${api.verdict} · ${api.composite_score.toFixed(1)}`);
      expect(card.properties.composite_score).toMatchObject({
        type: numberType,
        basicValue: api.composite_score,
        numberFormat: '0.0',
      });
      expect(card.properties.time_to_power_months).toMatchObject({
        type: numberType,
        basicValue: api.time_to_power_months,
        numberFormat: '0.0 "months"',
      });
      expect(card.properties.verdict.basicValue).toBe(api.verdict);
      expect(card.properties.iso.basicValue).toBe(api.iso);
      expect(card.properties.computed_at).toMatchObject({ type: numberType, numberFormat: 'yyyy-mm-dd hh:mm' });
      expect(card.properties.citation.basicValue).toMatch(
        /^DC Hub Power Index \(DCPI\), DC Hub, dchub\.cloud, CC-BY-4\.0, method [\d.]+\. Retrieved \d{4}-\d{2}-\d{2}\.$/,
      );
      expect(card.properties.composite_score.propertyMetadata.attribution[0].licenseText).toBe('CC-BY-4.0');
      expect(card.layouts.card.sections[0].layout).toBe(numberType === 'Double' ? 'TwoColumn' : 'List');
      expect(card.layouts.compact.icon).toBe('City');
      // A name as people write it reaches the same market.
      expect(((await call(h, 'MARKETCARD', ['Northern Virginia'])).value[0][0] as Card).type).toBe('Entity');
    });

    it('MARKETCARDS(): the leaderboard as a column of cards, best composite first; with a verdict, only that verdict', async () => {
      const cards = ((await call(h, 'MARKETCARDS', [null, 10])).value as Card[][]).map((r) => r[0]);
      expect(cards).toHaveLength(10);
      const composites = cards.map((c) => c.properties.composite_score.basicValue as number);
      expect(composites).toEqual([...composites].sort((a, b) => b - a));
      expect(cards[0].properties.rank.basicValue).toBe(1);
      const build = ((await call(h, 'MARKETCARDS', ['BUILD', 5])).value as Card[][]).map((r) => r[0]);
      expect(build.length).toBeGreaterThan(0);
      for (const c of build) expect(c.properties.verdict.basicValue).toBe('BUILD');
    });

    it('SITECARD(39.04,-77.49,100): overall score, nested fiber and nearby cards (=A1.fiber.connectivity_score), MW formatted', async () => {
      const api = await fx.api('/api/site-score?lat=39.04&lon=-77.49&capacity_mw=100&capacity=100', KEYS.pro);
      const card = (await call(h, 'SITECARD', [39.04, -77.49, 100])).value[0][0] as Card;
      expect(card.text).toBe(`39.04, -77.49 · ${api.interpretation} · ${api.overall_score.toFixed(1)}`);
      expect(card.properties.overall_score).toMatchObject({ type: numberType, basicValue: api.overall_score });
      expect(card.properties.capacity_requested_mw).toMatchObject({ basicValue: 100, numberFormat: '#,##0 "MW"' });
      expect(card.properties.fiber.type).toBe('Entity');
      expect(card.properties.fiber.properties.connectivity_score.basicValue).toBe(api.fiber.connectivity_score);
      expect(card.properties.nearby.properties.substations_50km.basicValue).toBe(api.nearby.substations_50km);
      // The facility inventory has no redistribution grant: its counts stay out of a card saved in the workbook.
      expect(card.properties.nearby.properties).not.toHaveProperty('facilities_100km');
      expect(card.properties.nearby.properties).not.toHaveProperty('total_capacity_mw');
      expect(card.layouts.compact.icon).toBe('MapPin');
    });

    it('QUEUECARDS("PJM,MISO",200,36): one project card per QUEUE row, name and MW as text, every queue field', async () => {
      const table = (await call(h, 'QUEUE', [...QUEUE_ARGS, null])).value as any[][];
      const header = table[0] as string[];
      const rows = table.slice(1).filter((r) => r.slice(1).some((v) => v !== ''));
      const cards = ((await call(h, 'QUEUECARDS', QUEUE_ARGS)).value as Card[][]).map((r) => r[0]);
      expect(rows.length).toBeGreaterThan(0);
      expect(cards).toHaveLength(rows.length);
      rows.forEach((row, i) => {
        const c = cards[i];
        const get = (k: string) => row[header.indexOf(k)];
        expect(c.properties.queue_id.basicValue).toBe(get('queue_id'));
        const mw = get('capacity_mw');
        expect(c.text).toBe(
          mw === '' ? get('project_name') : `${get('project_name')} · ${Math.round(mw).toLocaleString('en-US')} MW`,
        );
        for (const k of header) {
          if (!(k in c.properties)) continue; // a member the service left out of this record
          expect(c.properties[k].basicValue, k).toBe(get(k)); // dates as Excel dates in both
        }
        expect(c.layouts.compact.icon).toBe('Power');
      });
    });

    it('RANK over a range of site cards and of project cards: their ids the ids, their numbers the metrics', async () => {
      const points = [
        [39.04, -77.49],
        [32.78, -96.8],
        [33.45, -112.07],
      ];
      const sites: Card[] = [];
      for (const [lat, lon] of points) sites.push((await call(h, 'SITECARD', [lat, lon, null])).value[0][0]);
      const ranked = (
        await call(h, 'RANK', [
          range(sites.map((c) => [c])),
          'overall_score:1,fiber.connectivity_score:1',
          null,
          'absolute',
          3,
          1,
        ])
      ).value as any[][];
      expect(ranked[0].slice(0, 3)).toEqual(['rank', 'id', 'objective_score']);
      const ids = ranked.slice(1, 4).map((r) => r[1]);
      expect([...ids].sort()).toEqual(points.map(([a, b]) => `${a},${b}`).sort());
      const best = sites.reduce((a, b) =>
        a.properties.overall_score.basicValue + a.properties.fiber.properties.connectivity_score.basicValue >=
        b.properties.overall_score.basicValue + b.properties.fiber.properties.connectivity_score.basicValue
          ? a
          : b,
      );
      expect(ranked[1][1]).toBe(best.properties.id.basicValue);

      const projects = (await call(h, 'QUEUECARDS', ['ERCOT', 100, null, null, null, null, null, true, 5]))
        .value as Card[][];
      const r = (await call(h, 'RANK', [range(projects), 'capacity_mw:1', null, null, 5, 0])).value as any[][];
      const byMw = projects.map((p) => p[0]).filter((p) => typeof p.properties.capacity_mw.basicValue === 'number');
      byMw.sort((a, b) => b.properties.capacity_mw.basicValue - a.properties.capacity_mw.basicValue);
      expect(r.filter((row) => typeof row[0] === 'number').map((row) => row[1])).toEqual(
        byMw.map((p) => p.properties.id.basicValue),
      );
    });
  });

  describe('a host without cards (perpetual Office, iPad, builds before CustomFunctionsRuntime 1.4)', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await fx.harness(KEYS.pro, undefined, { host: HOSTS.noCards });
    });
    afterAll(() => h.page.close());

    it('each card function answers its table, never #VALUE!', async () => {
      expect((await call(h, 'QUEUECARDS', QUEUE_ARGS)).value).toEqual(
        (await call(h, 'QUEUE', [...QUEUE_ARGS, null])).value,
      );
      const market = (await call(h, 'MARKETCARD', ['dallas'])).value as any[][];
      const api = await fx.api('/api/v1/dcpi/scores/dallas', KEYS.pro);
      expect(market[0]).toEqual(['field', 'value']);
      expect(market).toContainEqual(['verdict', api.verdict]);
      expect(market).toContainEqual(['composite_score', api.composite_score]);
      const site = (await call(h, 'SITECARD', [39.04, -77.49, 100])).value as any[][];
      expect(site).toContainEqual(['overall_score', expect.any(Number)]);
      const board = (await call(h, 'MARKETCARDS', [null, 5])).value as any[][];
      expect(board[0].slice(0, 3)).toEqual(['rank', 'market_slug', 'market_name']);
      expect(board.slice(1, 6).map((r) => r[0])).toEqual([1, 2, 3, 4, 5]);
    });
  });
});
