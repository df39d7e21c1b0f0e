// Dates as Excel dates: ISO dates and timestamps become serial numbers (UTC), under the model.
import { afterEach, describe, expect, it } from 'vitest';
import { asExcelDate, excelSerial, useDateMode } from '../../excel-addin/src/functions/dates';
import { spill } from '../../excel-addin/src/functions/spill';

afterEach(() => useDateMode('serial'));

describe('excelSerial', () => {
  it('dates and timestamps in UTC, offsets honoured', () => {
    expect(excelSerial('2026-11-21')).toBe(46347); // =DATE(2026,11,21)
    expect(excelSerial('1900-03-01')).toBe(61);
    expect(excelSerial('2026-11-21T12:00:00Z')).toBe(46347.5);
    expect(excelSerial('2026-11-21T06:00:00+00:00')).toBe(46347.25);
    expect(excelSerial('2026-11-21T06:00:00-0600')).toBe(46347.5);
    expect(excelSerial('2026-11-21T18:00')).toBe(46347.75); // no zone: UTC
    expect(excelSerial('2026-11-21T08:52:57.500Z')).toBeCloseTo(46347 + (8 * 3600 + 52 * 60 + 57.5) / 86400, 7);
  });

  it('leaves other text alone', () => {
    for (const t of ['2026-13-45', 'PJM-2026-11-21', '2026/11/21', '1899-12-31', 'as of 2026-11-21', '', '20261121'])
      expect(excelSerial(t), t).toBeUndefined();
  });
});

describe('in spilled tables', () => {
  const table = {
    columns: ['market', 'computed_at', 'queue_date', 'note'],
    rows: [
      ['nova', '2026-11-21T06:00:00+00:00', '2024-01-15', 'ok'],
      ['dfw', '', '2023-06-30', 'n/a'],
    ],
  };

  it('date cells become serial numbers; blanks and text stay', () => {
    const m = spill(table, 1);
    expect(m[1]).toEqual(['nova', 46347.25, 45306, 'ok']);
    expect(m[2]).toEqual(['dfw', '', 45107, 'n/a']);
    expect(m[0]).toEqual(table.columns);
  });

  it('"Dates as text" keeps the ISO text', () => {
    useDateMode('text');
    expect(spill(table, 1)[1]).toEqual(table.rows[0]);
    expect(asExcelDate('2026-11-21')).toBe('2026-11-21');
  });
});
