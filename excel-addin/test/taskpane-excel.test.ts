// The task pane's workbook writers against office-addin-mock (see support/excel-mock.ts).
import { BRIEF_CSV_COLUMNS, BriefCsvRow, DCPI_CITATION, type Table } from '@dchub/core';
import { describe, expect, it } from 'vitest';
import { CHANGED_FILL, refreshBriefSheet } from '../src/taskpane/brief-refresh';
import {
  BRIEF_SETTINGS_KEY,
  BRIEF_TABLE_COLUMNS,
  CHANGED_COLUMN,
  findBriefTable,
  insertBriefSheet,
} from '../src/taskpane/brief-sheet';
import { DATE_FORMAT, HEADER_ROW, recalculate, writeRankedSheet } from '../src/taskpane/excel';
import { NO_FORMATS } from '../src/taskpane/formats';
import { briefRow as row } from './support/briefs';
import { FakeWorkbook } from './support/excel-mock';

const ROWS = [
  row('northern-virginia'),
  row('dallas', {
    market_name: '=HYPERLINK("http://evil.example","click")',
    top_operator: '+cmd|calc',
    verdict: 'AVOID',
    state: '-1',
    iso: '@SUM(A1)',
  }),
  row('phoenix', { composite_score: null, computed_at: '2026-11-20T06:00:00Z' }),
];
const col = (name: string) => BRIEF_TABLE_COLUMNS.indexOf(name);
const W = BRIEF_TABLE_COLUMNS.length;

async function inserted() {
  const wb = new FakeWorkbook();
  const r = await insertBriefSheet(wb.context, ROWS, { now: '2026-11-21T12:00:00.000Z' });
  return { wb, r, sheet: wb.sheet(r.sheet)! };
}

describe('insertBriefSheet', () => {
  it('writes the citation, the as-of stamp, the header and one row per brief as an Excel table', async () => {
    const { wb, r, sheet } = await inserted();
    // No Office here, so no ExcelApi 1.6: the sheet is written and the note says the formats were not
    // (taskpane-formats.test.ts).
    expect(r).toEqual({
      sheet: 'DC Hub briefs',
      table: 'DCHubBriefs',
      rows: 3,
      asOf: '2026-11-21T06:00:00Z',
      formats: NO_FORMATS,
    });
    expect(sheet.value(0, 0)).toBe(`Source: ${DCPI_CITATION}`);
    expect(sheet.value(1, 0)).toBe('As of 2026-11-21T06:00:00Z');
    expect(sheet.row(HEADER_ROW, 0, W)).toEqual([...BRIEF_CSV_COLUMNS, CHANGED_COLUMN]);
    expect(sheet.row(HEADER_ROW + 1, 0, W)).toEqual([
      'northern-virginia',
      'northern virginia',
      'BUILD',
      70,
      60,
      40,
      30,
      'PJM',
      'VA',
      1000,
      500,
      12,
      2.5,
      130,
      'Equinix',
      400,
      46347.25,
      46347.25,
      '', // live_as_of, computed_at: Excel dates (2026-11-21 06:00 UTC)
    ]);
    expect(sheet.cell(HEADER_ROW + 1, col('computed_at')).nf).toBe(DATE_FORMAT);
    expect(sheet.value(HEADER_ROW + 3, col('composite_score'))).toBe(''); // missing number → blank, not 0
    expect(wb.tables).toHaveLength(1);
    expect(wb.tables[0]).toMatchObject({ name: 'DCHubBriefs', row: HEADER_ROW, col: 0, rows: 4, cols: W });
    expect(wb.active.name).toBe('DC Hub briefs');
    expect(wb.autofits).toBe(1);
  });

  it('writes text that would run as a formula as text', async () => {
    const { sheet } = await inserted();
    const d = HEADER_ROW + 2;
    for (const [c, v] of [
      ['market_name', '=HYPERLINK("http://evil.example","click")'],
      ['top_operator', '+cmd|calc'],
      ['state', '-1'],
      ['iso', '@SUM(A1)'],
    ] as const) {
      expect(sheet.cell(d, col(c))).toMatchObject({ v, quoted: true });
    }
    expect(sheet.cell(d, col('verdict'))).toMatchObject({ v: 'AVOID', quoted: false });
    // Text columns are formatted as text, numbers stay numbers.
    expect(sheet.cell(d, col('market_name')).nf).toBe('@');
    expect(sheet.cell(d, col('composite_score'))).toMatchObject({ v: 70, nf: 'General' });
  });

  it('keeps the as-of in the workbook settings, and nothing secret', async () => {
    const { wb } = await inserted();
    const stored = JSON.parse(String(wb.settings.get(BRIEF_SETTINGS_KEY)));
    expect(stored).toEqual([
      {
        table: 'DCHubBriefs',
        sheet: 'DC Hub briefs',
        asOf: '2026-11-21T06:00:00Z',
        insertedAt: '2026-11-21T12:00:00.000Z',
      },
    ]);
    expect([...wb.settings.keys()]).toEqual([BRIEF_SETTINGS_KEY]);
    expect(JSON.stringify([...wb.settings.values()])).not.toMatch(/key|token|secret/i);
  });

  it('picks a free sheet and table name for a second brief sheet', async () => {
    const { wb } = await inserted();
    const second = await insertBriefSheet(wb.context, ROWS.slice(0, 1));
    expect(second).toMatchObject({ sheet: 'DC Hub briefs (2)', table: 'DCHubBriefs2', rows: 1 });
    expect(JSON.parse(String(wb.settings.get(BRIEF_SETTINGS_KEY))).map((r: { table: string }) => r.table)).toEqual([
      'DCHubBriefs',
      'DCHubBriefs2',
    ]);
  });
});

describe('refreshBriefSheet', () => {
  /** A brief table with a user column inside the table (T) and one beside it (V). */
  async function withUserColumns() {
    const ctx = await inserted();
    const { wb, sheet } = ctx;
    wb.tables[0].cols = W + 1; // the user typed a header next to the table: Excel grew the table
    sheet.setValue(HEADER_ROW, W, 'my_rating');
    sheet.setValue(HEADER_ROW, W + 2, 'notes');
    for (let i = 1; i <= 3; i++) {
      sheet.setValue(HEADER_ROW + i, W, i * 10);
      sheet.setValue(HEADER_ROW + i, W + 2, `note ${i}`);
      sheet.patch(HEADER_ROW + i, W + 2, { fill: '#00FF00' });
    }
    return ctx;
  }

  it('updates only the changed rows, marks them, appends new markets and leaves user columns alone', async () => {
    const { wb, sheet } = await withUserColumns();
    const before = [1, 2, 3].map((i) => sheet.row(HEADER_ROW + i, 0, W + 3));
    const diff = [
      row('northern-virginia', { composite_score: 75, verdict: 'CAUTION', computed_at: '2026-11-22T06:00:00Z' }),
      ROWS[2], // same values as in the sheet: not changed
      row('atlanta', { market_name: '=1+1', computed_at: '2026-11-22T06:00:00Z' }),
    ];
    const r = await refreshBriefSheet(wb.context, diff, {
      stamp: '2026-11-22T06:05Z',
      now: '2026-11-22T06:05:00.000Z',
    });
    expect(r).toEqual({
      table: 'DCHubBriefs',
      changed: ['northern-virginia'],
      added: ['atlanta'],
      unchanged: 1,
      asOf: '2026-11-22T06:00:00Z',
      formats: NO_FORMATS,
    });

    const nova = HEADER_ROW + 1;
    expect(sheet.value(nova, col('composite_score'))).toBe(75);
    expect(sheet.value(nova, col('verdict'))).toBe('CAUTION');
    expect(sheet.value(nova, col(CHANGED_COLUMN))).toBe('changed 2026-11-22T06:05Z');
    for (let c = 0; c < W; c++) expect(sheet.cell(nova, c).fill).toBe(CHANGED_FILL);
    // User columns: values and formats as they were, on every row.
    for (let i = 1; i <= 3; i++) {
      expect(sheet.value(HEADER_ROW + i, W)).toBe(i * 10);
      expect(sheet.cell(HEADER_ROW + i, W).fill).toBeUndefined();
      expect(sheet.cell(HEADER_ROW + i, W + 2)).toMatchObject({ v: `note ${i}`, fill: '#00FF00' });
    }
    // Unchanged rows: untouched.
    expect(sheet.row(HEADER_ROW + 2, 0, W + 3)).toEqual(before[1]);
    expect(sheet.row(HEADER_ROW + 3, 0, W + 3)).toEqual(before[2]);
    for (let c = 0; c < W; c++) expect(sheet.cell(HEADER_ROW + 3, c).fill).toBeUndefined();
    // The new market: appended inside the table, neutralized, marked; the user column left blank.
    const atl = HEADER_ROW + 4;
    expect(wb.tables[0].rows).toBe(5);
    expect(sheet.value(atl, col('market_slug'))).toBe('atlanta');
    expect(sheet.cell(atl, col('market_name'))).toMatchObject({ v: '=1+1', quoted: true });
    expect(sheet.value(atl, col(CHANGED_COLUMN))).toBe('added 2026-11-22T06:05Z');
    expect(sheet.cell(atl, 0).fill).toBe(CHANGED_FILL);
    expect(sheet.value(atl, W)).toBe('');
    expect(sheet.value(atl, W + 2)).toBe('');
    // The as-of moved: stamp cell and workbook setting.
    expect(sheet.value(1, 0)).toBe('As of 2026-11-22T06:00:00Z');
    expect(JSON.parse(String(wb.settings.get(BRIEF_SETTINGS_KEY)))[0]).toMatchObject({
      asOf: '2026-11-22T06:00:00Z',
      refreshedAt: '2026-11-22T06:05:00.000Z',
    });
  });

  it('clears the previous refresh marks and finds columns by header when they were moved', async () => {
    const { wb, sheet } = await withUserColumns();
    await refreshBriefSheet(
      wb.context,
      [row('northern-virginia', { composite_score: 75, computed_at: '2026-11-22T06:00:00Z' })],
      { stamp: 'day 2' },
    );
    // The user swapped the verdict and iso columns.
    const [v, i] = [col('verdict'), col('iso')];
    for (let r = HEADER_ROW; r <= HEADER_ROW + 3; r++) {
      const [a, b] = [sheet.cell(r, v), sheet.cell(r, i)];
      sheet.cells.set(`${r},${v}`, b);
      sheet.cells.set(`${r},${i}`, a);
    }
    const r = await refreshBriefSheet(
      wb.context,
      [BriefCsvRow.parse({ ...ROWS[1], verdict: 'CAUTION', composite_score: 10, computed_at: '2026-11-23T06:00:00Z' })],
      { stamp: 'day 3' },
    );
    expect(r.changed).toEqual(['dallas']);
    expect(sheet.value(HEADER_ROW + 1, col(CHANGED_COLUMN))).toBe('');
    expect(sheet.cell(HEADER_ROW + 1, 0).fill).toBeUndefined();
    expect(sheet.value(HEADER_ROW + 1, col('composite_score'))).toBe(75); // the day-2 value stays
    expect(sheet.value(HEADER_ROW + 2, col(CHANGED_COLUMN))).toBe('changed day 3');
    expect(sheet.value(HEADER_ROW + 2, col('composite_score'))).toBe(10);
    expect(sheet.value(HEADER_ROW, i)).toBe('verdict');
    expect(sheet.value(HEADER_ROW + 2, i)).toBe('CAUTION');
    expect(sheet.cell(HEADER_ROW + 2, v)).toMatchObject({ v: '@SUM(A1)', quoted: true });
    expect(sheet.cell(HEADER_ROW + 2, col('market_name'))).toMatchObject({
      v: '=HYPERLINK("http://evil.example","click")',
      quoted: true,
    });
    expect(sheet.value(HEADER_ROW + 2, W + 2)).toBe('note 2');
    expect(r.asOf).toBe('2026-11-23T06:00:00Z');
  });

  it('says when there is no brief table, and finds the one there is', async () => {
    const wb = new FakeWorkbook();
    await expect(refreshBriefSheet(wb.context, [])).rejects.toThrow(/insert a brief sheet first/);
    const { wb: wb2 } = await inserted();
    expect(await findBriefTable(wb2.context)).toMatchObject({ table: 'DCHubBriefs', asOf: '2026-11-21T06:00:00Z' });
  });
});

describe('writeRankedSheet', () => {
  it('writes the ranked table on a new sheet with its citation, summary and note', async () => {
    const wb = new FakeWorkbook();
    const table: Table = {
      columns: ['rank', 'id', 'objective_score', 'overall_score', 'project_name'],
      rows: [
        [1, 'PJM-1', 0.93, 81, 'Alpha Solar'],
        [2, 'ERCOT-7', 0.5, 64, '=WEBSERVICE("http://x")'],
      ],
      citation: 'DC Hub interconnection queue, dchub.cloud, CC-BY-4.0',
      note: '3 survivors not scored to stay within the budget of 5 calls.',
    };
    const r = await writeRankedSheet(wb.context, table, { summary: 'Chain: 2 sites scored, 4 calls spent' });
    expect(r).toEqual({ sheet: 'DC Hub ranking', table: 'DCHubRanking', rows: 2 });
    const s = wb.sheet('DC Hub ranking')!;
    expect(s.block(0, 0, 3, 1).flat()).toEqual([
      'Source: DC Hub interconnection queue, dchub.cloud, CC-BY-4.0',
      'Chain: 2 sites scored, 4 calls spent',
      '3 survivors not scored to stay within the budget of 5 calls.',
    ]);
    expect(s.row(HEADER_ROW, 0, 5)).toEqual(table.columns);
    expect(s.row(HEADER_ROW + 1, 0, 5)).toEqual(table.rows[0]);
    expect(s.cell(HEADER_ROW + 2, 4)).toMatchObject({ v: '=WEBSERVICE("http://x")', quoted: true, nf: '@' });
    expect(s.cell(HEADER_ROW + 2, 2)).toMatchObject({ v: 0.5, nf: 'General' });
    expect(wb.tables[0]).toMatchObject({ name: 'DCHubRanking', rows: 3, cols: 5 });
    const again = await writeRankedSheet(wb.context, table);
    expect(again.sheet).toBe('DC Hub ranking (2)');
  });
});

describe('recalculate', () => {
  it('asks Excel for a full recalculation', async () => {
    const wb = new FakeWorkbook();
    await recalculate(wb.context);
    expect(wb.calculations).toEqual(['Full']);
  });
});

describe('the mock itself', () => {
  it('fails like Excel when a property is read without load and sync', async () => {
    const wb = new FakeWorkbook();
    const s = wb.context.workbook.worksheets.getActiveWorksheet();
    expect(s.name).toMatch(/not loaded/);
    s.load('name');
    expect(s.name).toMatch(/sync/);
    await wb.context.sync();
    expect(s.name).toBe('Sheet1');
  });
});
