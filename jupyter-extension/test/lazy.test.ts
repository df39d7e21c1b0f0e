// Rows shaped on demand: only what is read is shaped; sorting and filtering see every row.
import type { Cell } from '@dchub/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, lazyRows, pickRows, viewRows } from '../src/tableView';
import { lazyRecordsTable } from '../src/lazyTable';

describe('lazyRows', () => {
  it('shapes a row the first time it is read, once', () => {
    const made: number[] = [];
    const rows = lazyRows(1000, (i) => {
      made.push(i);
      return [i, `r${i}`];
    });
    expect(rows.length).toBe(1000);
    expect(rows[3]).toEqual([3, 'r3']);
    expect(rows[3]).toBe(rows[3]);
    expect(made).toEqual([3]);
    expect(rows.slice(0, 2)).toEqual([
      [0, 'r0'],
      [1, 'r1']
    ]);
    expect([...rows].length).toBe(1000);
    expect(rows[1000]).toBeUndefined();
  });

  it('a lazy table views, sorts, filters and exports like a plain one', () => {
    const records = Array.from({ length: 500 }, (_, i) => ({
      id: `Q-${i}`,
      mw: (i * 37) % 101,
      fuel: i % 3 ? 'Gas' : 'Wind'
    }));
    const plain = { columns: ['id', 'mw', 'fuel'], rows: records.map((r) => [r.id, r.mw, r.fuel] as Cell[]) };
    const lazy = lazyRecordsTable(records, ['id', 'mw', 'fuel'], { citation: 'c' });
    expect(viewRows(lazy, DEFAULT_VIEW)).toEqual(viewRows(plain, DEFAULT_VIEW));
    const view = { sortColumn: 1, descending: true, filter: 'gas' };
    expect(viewRows(lazy, view)).toEqual(viewRows(plain, view));
    expect(pickRows(lazy, [5, 1]).rows).toEqual([plain.rows[5], plain.rows[1]]);
    expect(lazy.citation).toBe('c');
  });

  it('filters on every word, across cells but never spanning two', () => {
    const table = {
      columns: ['a', 'b'],
      rows: [
        ['PJM', 'gas'],
        ['ERCOT', 'wind'],
        ['pj', 'mgas']
      ] as Cell[][]
    };
    expect(viewRows(table, { ...DEFAULT_VIEW, filter: 'pjm gas' })).toEqual([0]);
    expect(viewRows(table, { ...DEFAULT_VIEW, filter: 'pjmgas' })).toEqual([]);
  });
});
