// Conditional formats of brief sheets against the Office.js mock (support/excel-mock-visuals.ts).
import { LOW_IS_GOOD, SCORE_COLOR, VERDICT_COLORS } from '@dchub/core/charts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshBriefSheet } from '../src/taskpane/brief-refresh';
import { BRIEF_TABLE_COLUMNS, insertBriefSheet } from '../src/taskpane/brief-sheet';
import { HEADER_ROW } from '../src/taskpane/excel';
import { NO_FORMATS } from '../src/taskpane/formats';
import { briefRow as row } from './support/briefs';
import { FakeWorkbook } from './support/excel-mock';
import { ruleData } from './support/excel-mock-visuals';

const ROWS = [
  row('ashburn'),
  row('dallas', { verdict: 'AVOID', queue_wait_months: 60 }),
  row('phoenix', { verdict: 'CAUTION', composite_score: null }),
];
/** R1C1 of a whole brief column, header excluded. */
const column = (name: string, rows: number) => {
  const c = BRIEF_TABLE_COLUMNS.indexOf(name) + 1;
  return `DC Hub briefs!R${HEADER_ROW + 2}C${c}:R${HEADER_ROW + 1 + rows}C${c}`;
};

/** The rules a brief sheet of `rows` rows carries: three verdict fills, a score bar, a months scale. */
const expected = (rows: number) => [
  {
    type: 'ContainsText',
    address: column('verdict', rows),
    fill: VERDICT_COLORS[0],
    rule: { operator: 'Contains', text: 'BUILD' },
  },
  {
    type: 'ContainsText',
    address: column('verdict', rows),
    fill: VERDICT_COLORS[1],
    rule: { operator: 'Contains', text: 'CAUTION' },
  },
  {
    type: 'ContainsText',
    address: column('verdict', rows),
    fill: VERDICT_COLORS[2],
    rule: { operator: 'Contains', text: 'AVOID' },
  },
  {
    type: 'DataBar',
    address: column('composite_score', rows),
    color: SCORE_COLOR,
    gradient: false,
    lower: { type: 'Number', formula: '0' },
    upper: { type: 'Number', formula: '100' },
  },
  {
    type: 'ColorScale',
    address: column('queue_wait_months', rows),
    criteria: {
      minimum: { type: 'LowestValue', color: LOW_IS_GOOD.low },
      midpoint: { formula: '50', type: 'Percentile', color: LOW_IS_GOOD.mid },
      maximum: { type: 'HighestValue', color: LOW_IS_GOOD.high },
    },
  },
];

let supported: string[] = [];
beforeEach(() => {
  supported = ['1.1', '1.6'];
  vi.stubGlobal('Office', {
    context: {
      requirements: { isSetSupported: (set: string, v: string) => set === 'ExcelApi' && supported.includes(v) },
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('conditional formats of a brief sheet', () => {
  it('verdict fills, a data bar on the composite score and a colour scale on months to power, in core’s colours', async () => {
    const wb = new FakeWorkbook();
    const r = await insertBriefSheet(wb.context, ROWS);
    expect(r.formats).toBeUndefined();
    expect(wb.rules.map(ruleData)).toEqual(expected(3));
    expect(VERDICT_COLORS).toEqual(['#009E73', '#E69F00', '#D55E00']);
  });

  it('survive refreshes: after each, the same rules over the whole column (appended rows included), never one more', async () => {
    const wb = new FakeWorkbook();
    await insertBriefSheet(wb.context, ROWS);
    // A rule of the user's own, on a column of theirs beside the table, is left alone.
    const own = wb.range(wb.sheet('DC Hub briefs')!, HEADER_ROW + 1, BRIEF_TABLE_COLUMNS.length + 1, 3, 1);
    own.conditionalFormats.add('DataBar');
    await wb.context.sync();
    const mine = (rules: typeof wb.rules) => rules.filter((x) => x.c === BRIEF_TABLE_COLUMNS.length + 1);
    for (let n = 1; n <= 4; n++) {
      const diff = [
        row('dallas', { verdict: n % 2 ? 'BUILD' : 'AVOID', composite_score: 40 + n }),
        ...(n === 2 ? [row('reno', { verdict: 'CAUTION' })] : []),
      ];
      const refreshed = await refreshBriefSheet(wb.context, diff, { stamp: `n${n}` });
      expect(refreshed.formats).toBeUndefined();
      const rows = n >= 2 ? 4 : 3;
      expect(wb.rules.filter((x) => !mine([x]).length).map(ruleData), `after refresh ${n}`).toEqual(expected(rows));
      expect(mine(wb.rules)).toHaveLength(1);
    }
  });

  it('are skipped, with a note, where Excel lacks ExcelApi 1.6', async () => {
    supported = ['1.1'];
    const wb = new FakeWorkbook();
    const r = await insertBriefSheet(wb.context, ROWS);
    expect(r.formats).toBe(NO_FORMATS);
    const refreshed = await refreshBriefSheet(wb.context, [row('dallas', { composite_score: 12 })]);
    expect(refreshed.formats).toBe(NO_FORMATS);
    expect(wb.rules).toEqual([]);
    // The sheet itself is written as ever.
    expect(wb.sheet('DC Hub briefs')!.row(HEADER_ROW + 2, 0, 4)).toEqual(['dallas', 'dallas', 'BUILD', 12]);
  });
});
