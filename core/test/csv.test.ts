import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutralizeCell, parseCsv, restoreCell, toCsv } from '../src/csv.js';
import { cell, tableFromRecords, type Cell } from '../src/table.js';

const text = fc.string({ unit: 'grapheme', maxLength: 20 });
const cellArb: fc.Arbitrary<Cell> = fc.oneof(
  text,
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom('=SUM(A1)', '+1', '-x', '@cmd', '\tx', '\rx', 'a,b', 'q"uote', 'multi\nline', ' padded '),
);

describe('CSV', () => {
  it('neutralizes formula injection in text, not in numbers', () => {
    expect(neutralizeCell('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(neutralizeCell('+1')).toBe("'+1");
    expect(neutralizeCell('@SUM')).toBe("'@SUM");
    expect(neutralizeCell('\tcmd')).toBe("'\tcmd");
    expect(neutralizeCell(-5)).toBe(-5);
    expect(neutralizeCell('plain')).toBe('plain');
    expect(toCsv({ columns: ['a'], rows: [['=1+1'], [-2]] })).toBe("a\r\n'=1+1\r\n-2\r\n");
  });

  it('round-trips any table (property)', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 5 }),
        fc.array(fc.array(cellArb, { minLength: 5, maxLength: 5 }), { maxLength: 20 }),
        (cols, rows) => {
          const width = cols.length;
          const table = { columns: cols, rows: rows.map((r) => r.slice(0, width)) };
          const back = parseCsv(toCsv(table));
          expect(back.columns).toEqual(cols);
          expect(back.rows).toEqual(table.rows.map((r) => r.map((v) => (typeof v === 'number' ? String(v) : v))));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('restoreCell only undoes what neutralizeCell did', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          text,
          text.map((t) => `'=${t}`),
          text.map((t) => `''+${t}`),
        ),
        (s) => {
          expect(restoreCell(String(neutralizeCell(s)))).toBe(s);
        },
      ),
    );
  });
});

describe('table shaping (property)', () => {
  it('keeps the column order, numbers as numbers, blanks as empty strings', () => {
    const value = fc.oneof(fc.constant(null), fc.constant(undefined), fc.double(), fc.integer(), text, fc.boolean());
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), value), { maxLength: 30 }), (records) => {
        const t = tableFromRecords(records, ['d', 'a', 'c']);
        expect(t.columns).toEqual(['d', 'a', 'c']);
        expect(t.rows).toHaveLength(records.length);
        t.rows.forEach((row, i) => {
          row.forEach((v, j) => {
            const src = records[i][t.columns[j]];
            expect(v).toBe(cell(src));
            if (typeof src === 'number' && Number.isFinite(src)) expect(typeof v).toBe('number');
            if (src === null || src === undefined) expect(v).toBe('');
          });
        });
      }),
    );
  });
});
