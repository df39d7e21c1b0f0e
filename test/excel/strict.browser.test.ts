import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExcelFixture, callRaw, type Harness } from './fixture.js';

/**
 * The strict runtime model against the built bundle: the defects issue 11 names, which the lenient
 * stand-in let through. Each call here would show #VALUE! (or a wrong value) in a real workbook.
 */
const PRO = 'xl-strict-pro-00001';
const fx = new ExcelFixture();
beforeAll(() => fx.start({ seed: 'excel-strict', keys: { pro: PRO } }));
afterAll(() => fx.stop());

const square = JSON.stringify({ type: 'Polygon', coordinates: [[[-77.5, 39.0], [-77.49, 39.0], [-77.49, 39.01], [-77.5, 39.01], [-77.5, 39.0]]] });

describe('known defects of the current formulas, caught by the model', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await fx.harness(PRO);
  });

  const defects: Array<[string, unknown[], RegExp]> = [
    ['BRIEF', ['dallas', null], /array from a function declared single-value/],
    ['MARKET', ['dallas', null], /array from a function declared single-value/],
    ['PARCEL', [square, 100, null], /array from a function declared single-value/],
    ['TOOL', ['get_market_dcpi_rank', 'market_slug=dallas'], /array from a function declared single-value/],
    ['FACILITIES', ['Ashburn', null, null], /row 0 is empty|not rectangular/],
    ['DCPI', ['dallas', 'constructor'], /a function is not a cell value/],
  ];
  for (const [id, args, defect] of defects) {
    it(`${id}(${JSON.stringify(args).slice(1, -1).slice(0, 60)})`, async () => {
      const r = await callRaw(h, id, args);
      expect(r.error?.code).toBe('#VALUE!');
      expect(r.defects?.join('\n')).toMatch(defect);
    });
  }

  it('PARCEL with a deeply nested polygon shows the engine message, not #VALUE! naming the argument', async () => {
    // A coordinate pair nested 16,000 deep (32 kB: what a cell can hold).
    const deep = `{"type":"Polygon","coordinates":[[[${'['.repeat(16000)}0${']'.repeat(16000)},1],[-77.49,39],[-77.49,39.01],[-77.5,39]]]}`;
    const r = await callRaw(h, 'PARCEL', [deep, null, 'total_acres']);
    expect(r.error).toMatchObject({ code: '#N/A', message: expect.stringMatching(/Maximum call stack size exceeded/) });
  });
});
