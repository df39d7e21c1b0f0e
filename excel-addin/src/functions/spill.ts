import { tableToMatrix, type Cell, type Table } from '@dchub/core';
import { asExcelDate } from './dates';
import { closingRows, type ClosingRows } from './notes';

/** The longest text a cell holds. */
export const MAX_CELL_TEXT = 32_767;

/** A value Excel can show in a cell: dates as serial numbers, text clipped to what a cell holds. */
export const fit = (v: Cell): Cell => {
  if (typeof v !== 'string') return v;
  if (v.length > MAX_CELL_TEXT) return `${v.slice(0, MAX_CELL_TEXT - 1)}…`;
  return asExcelDate(v);
};

const pad = (row: readonly Cell[], width: number): Cell[] => {
  const out = row.map(fit);
  while (out.length < width) out.push('');
  return out;
};

/**
 * A table as a spilled range: optional source/as-of row (mode 2), header row (modes 1, 2), data
 * rows, then the closing rows, one line each: the table's own note, what the service explains
 * about the answer, then the add-in's notes (a stale cache, a gated preview). `closing` is a list
 * of notes, or an answer's `closingRows` (./notes). Dates as serial numbers (see ./dates). Always a
 * non-empty rectangle: an empty answer says so in a row of its own — the service's explanation
 * when it gave one (a time-to-power cut, its hint), else `emptyText`. Blanks as "" never null
 * (Excel would show 0).
 */
export function spill(
  table: Table,
  mode: 0 | 1 | 2,
  closing: readonly string[] | ClosingRows = [],
  emptyText = 'No rows match these arguments',
): Cell[][] {
  const width = Math.max(1, table.columns.length);
  const rows: (readonly Cell[])[] = [];
  if (mode === 2) {
    const source = `Source: ${table.citation ?? 'DC Hub, dchub.cloud, CC-BY-4.0'}`;
    const asOf = table.asOf ? `as of ${table.asOf}` : '';
    rows.push(width > 1 ? [source, asOf] : [asOf ? `${source}, ${asOf}` : source]);
  }
  rows.push(...tableToMatrix(table, mode !== 0 && table.columns.length > 0));
  const { explanations, notes } = Array.isArray(closing)
    ? { explanations: [], notes: closing as readonly string[] }
    : (closing as ClosingRows);
  const said = table.rows.length === 0 && !table.note && explanations.length === 0 ? [emptyText] : [];
  for (const n of [...said, ...(table.note ? [table.note] : []), ...explanations, ...notes]) rows.push([n]);
  return rows.map((r) => pad(r, width));
}

/** An answer's table as a spill (see `spill`), closed by the answer's closing rows (./notes `closingRows`). */
export const spillAnswer = (data: unknown, table: Table, mode: 0 | 1 | 2 = 1, emptyText?: string): Cell[][] =>
  spill(table, mode, closingRows(data), emptyText);
