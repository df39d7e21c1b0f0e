import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExcelFixture, PROFILES, call, type CallResult } from './fixture.js';

/**
 * The card functions' edge cases under the strict model, both sandbox profiles: no match, gated
 * previews, a spent allowance, a stale card, null scores, a 1,000-card spill, a recalculation
 * storm, a workbook of cards opened again, formula value preview. `call` fails on any rule of
 * Excel's runtime (cards included) a result breaks.
 */
const KEYS = { free: 'xl-edges-free-00001', developer: 'xl-edges-dev-000001', enterprise: 'xl-edges-ent-000001' };
type Card = { type: string; text: string; properties: Record<string, any> };
const DAY = 86_400_000;

describe.each(PROFILES)('card edge cases (%s profile)', (profile) => {
  const fx = new ExcelFixture();
  const real = profile === 'real';
  beforeAll(() => fx.start({ seed: 'excel-card-edges', keys: KEYS, profile }));
  afterAll(() => fx.stop());
  beforeEach(async () => {
    await fx.control('/_sandbox/faults', undefined, 'DELETE');
    await fx.control('/_sandbox/limits', undefined, 'DELETE');
  });
  const card = (r: CallResult) => r.value[0][0] as Card;

  it('no match: #N/A saying why, never an empty or malformed spill', async () => {
    const h = await fx.harness(KEYS.enterprise);
    expect((await call(h, 'MARKETCARD', ['atlantis'])).error).toMatchObject({
      code: '#N/A',
      message: expect.stringMatching(/^DC Hub: .*not found/i),
    });
    expect((await call(h, 'QUEUECARDS', ['PJM', 99999, null, null, null, null, null, null, null])).error).toMatchObject(
      {
        code: '#N/A',
        message: expect.stringMatching(/^DC Hub: /),
      },
    );
    expect((await call(h, 'MARKETCARDS', ['LOW_SIGNAL', null])).error).toEqual({
      code: '#N/A',
      message: 'DC Hub: no markets match these arguments',
    });
    expect((await call(h, 'SITECARD', [95, -77, null])).error).toMatchObject({
      code: '#VALUE!',
      message: expect.stringMatching(/^lat: /),
    });
    await h.page.close();
  });

  it('a gated preview: the withheld values blank, the subtitle says preview, `preview` names what is withheld', async () => {
    const keyless = await fx.harness();
    const tease = (
      (await call(keyless, 'QUEUECARDS', ['PJM', null, null, null, null, null, null, null, null])).value as Card[][]
    ).map((r) => r[0]);
    expect(tease).toHaveLength(3);
    for (const c of tease) {
      expect(c.properties.capacity_mw).toEqual({ type: 'String', basicValue: '' });
      expect(c.text).toBe(c.properties.name.basicValue); // no MW to show
      expect(c.properties.summary.basicValue).toMatch(/^Preview · PJM/);
      expect(c.properties.preview.basicValue).toMatch(/^Preview: 3 of [\d,]+ rows shown; withheld: capacity_mw, /);
    }
    await keyless.page.close();

    const free = await fx.harness(KEYS.free);
    const m = card(await call(free, 'MARKETCARD', ['dallas']));
    if (real) {
      // Below Developer the real service withholds the DCPI numbers and keeps the verdict (notes §2.6).
      expect(m.text).toMatch(/^Dallas · (BUILD|CAUTION|AVOID)$/);
      expect(m.properties.composite_score.basicValue).toBe('');
      expect(m.properties.summary.basicValue).toMatch(/^Preview · DCPI /);
      expect(m.properties.preview.basicValue).toMatch(
        /withheld: composite_score, constraint_score, excess_power_score, time_to_power_months/,
      );
    } else {
      expect(typeof m.properties.composite_score.basicValue).toBe('number');
      expect(m.properties.preview).toBeUndefined();
    }
    await free.page.close();

    if (real) {
      // Site scores below Pro: the verdict band and the nearby counts, every score withheld.
      const dev = await fx.harness(KEYS.developer);
      const s = card(await call(dev, 'SITECARD', [39.04, -77.49, 100]));
      expect(s.properties.overall_score.basicValue).toBe('');
      expect(s.properties.verdict_band.basicValue).toBe('Excellent site');
      expect(s.properties.preview.basicValue).toMatch(
        /withheld: fiber, overall_score, scores; the Pro plan opens the full answer/,
      );
      expect(typeof s.properties.nearby.properties.substations_50km.basicValue).toBe('number');
      await dev.page.close();
    }
  });

  it('a spent allowance: #N/A with the reason for every card function', async () => {
    const h = await fx.harness(KEYS.free);
    for (let i = 0; i < 10; i++) await call(h, 'SITESCORE', [36 + i * 0.1, -97, null, null]);
    for (const [id, args] of [
      ['SITECARD', [47, -97, null]],
      ['MARKETCARD', ['phoenix']],
      ['MARKETCARDS', [null, 3]],
      ['QUEUECARDS', ['MISO', null, null, null, null, null, null, null, null]],
    ] as const) {
      const r = await call(h, id, [...args]);
      expect(r.error, id).toMatchObject({ code: '#N/A', message: expect.stringMatching(/allowance|limit|spent/i) });
    }
    await h.page.close();
  });

  it('a stale card: served from the cache after a failure, it carries its as_of and a stale note', async () => {
    const h = await fx.harness(KEYS.enterprise);
    const fresh = card(await call(h, 'MARKETCARD', ['dallas']));
    const project = (
      (await call(h, 'QUEUECARDS', ['SPP', null, null, null, null, null, null, null, 2])).value as Card[][]
    )[0][0];
    expect(fresh.properties.stale).toBeUndefined();
    await fx.control('/_sandbox/faults', [{ path_prefix: '/api/', kind: 'html_gateway', gateway_status: 524 }]);
    await h.page.clock.install({ time: Date.now() + 8 * DAY });
    const stale = card(await call(h, 'MARKETCARD', ['dallas']));
    expect(stale.properties.stale.basicValue).toBe('served from the cache (8 days old): service error');
    expect(stale.properties.summary.basicValue).toMatch(/ · stale \(cached\)$/);
    expect(stale.properties.as_of).toEqual(fresh.properties.as_of); // the age is that of the first answer
    expect(stale.properties.composite_score).toEqual(fresh.properties.composite_score);
    const staleProject = (
      (await call(h, 'QUEUECARDS', ['SPP', null, null, null, null, null, null, null, 2])).value as Card[][]
    )[0][0];
    expect(staleProject.properties.queue_id).toEqual(project.properties.queue_id);
    expect(staleProject.properties.stale.basicValue).toMatch(/^served from the cache \(8 days old\): /);
    await h.page.close();
  });

  it('null scores (a market the service cannot score): blank properties, never 0, and no preview claimed', async () => {
    const h = await fx.harness(KEYS.enterprise);
    await h.page.route('**/api/v1/dcpi/scores/austin', async (route) => {
      const answer = await (await route.fetch()).json();
      const nulls = {
        composite_score: null,
        excess_power_score: null,
        constraint_score: null,
        time_to_power_months: null,
        verdict: 'NODATA',
      };
      await route.fulfill({ json: { ...answer, ...nulls } });
    });
    const c = card(await call(h, 'MARKETCARD', ['austin']));
    expect(c.text).toBe('Austin · NODATA');
    for (const k of ['composite_score', 'excess_power_score', 'constraint_score', 'time_to_power_months'])
      expect(c.properties[k].basicValue, k).toBe('');
    expect(c.properties.preview).toBeUndefined();
    // A site scored without a capacity: the requested capacity is null, a blank.
    expect(card(await call(h, 'SITECARD', [39.04, -77.49, null])).properties.capacity_requested_mw.basicValue).toBe('');
    await h.page.close();
  });

  it('a 1,000-card spill: every card valid, the result within Excel on the web’s 5 MB', async () => {
    const h = await fx.harness(KEYS.enterprise);
    const r = await call(h, 'QUEUECARDS', [null, null, null, null, 'all', null, null, null, 1000]);
    const cards = (r.value as Card[][]).map((row) => row[0]);
    expect(cards).toHaveLength(1000);
    expect(new Set(cards.map((c) => c.properties.id.basicValue)).size).toBe(1000);
    expect(JSON.stringify(r.value).length).toBeLessThan(5_000_000);
    await h.page.close();
  });

  it('a recalculation storm of 1,000 card cells over 200 argument sets: at most 200 requests, then none', async () => {
    const h = await fx.harness(KEYS.enterprise);
    const storm = () =>
      h.page.evaluate(async () => {
        const calls = Array.from({ length: 1000 }, (_, i) =>
          (window as any).__call('SITECARD', [30 + (i % 200) * 0.05, -100, null]),
        );
        const results = (await Promise.all(calls)) as CallResult[];
        return {
          defects: results.flatMap((x) => x.defects ?? []),
          cards: results.filter((x) => x.value?.[0]?.[0]?.type === 'Entity').length,
        };
      });
    expect(await storm()).toEqual({ defects: [], cards: 1000 });
    const first = h.requests();
    expect(first).toBeLessThanOrEqual(200);
    expect(await storm()).toEqual({ defects: [], cards: 1000 });
    expect(h.requests()).toBe(first);
    await h.page.close();
  });

  it('a workbook of cards opened again is filled from the persisted cache, no request; nothing is sent in formula value preview', async () => {
    const first = await fx.harness(KEYS.enterprise);
    const formulas: Array<[string, unknown[]]> = [
      ['MARKETCARD', ['dallas']],
      ['MARKETCARDS', [null, 5]],
      ['SITECARD', [39.04, -77.49, 100]],
      ['QUEUECARDS', ['ERCOT', 100, null, null, null, null, null, true, 10]],
    ];
    const before = [];
    for (const [id, args] of formulas) before.push((await call(first, id, args)).value);
    const persisted = await ExcelFixture.persisted(first);
    await first.page.close();
    const again = await fx.harness(KEYS.enterprise, undefined, { persisted });
    for (const [i, [id, args]] of formulas.entries())
      expect((await call(again, id, args)).value, id).toEqual(before[i]);
    expect(again.requests()).toBe(0);
    const preview = await call(again, 'MARKETCARD', ['phoenix'], { isInValuePreview: true });
    expect(preview.error).toMatchObject({ code: '#N/A', message: expect.stringMatching(/press Enter/) });
    expect(again.requests()).toBe(0);
    await again.page.close();
  });
});
