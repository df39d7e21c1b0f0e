import { tableToMatrix, type Cell, type Table } from '@dchub/core';

const pad = (row: Cell[], width: number): Cell[] => (row.length >= width ? row : [...row, ...Array<Cell>(width - row.length).fill('')]);

/**
 * A table as a spilled range: optional source/as-of row (mode 2), header row (modes 1, 2), data
 * rows, then one row per note (a hint, a stale cache, a gated preview). Blanks are "", never
 * null (Excel would show 0).
 */
export function spill(table: Table, mode: 0 | 1 | 2, notes: string[] = [], emptyText = 'No rows match these arguments'): Cell[][] {
  const width = Math.max(1, table.columns.length);
  const out: Cell[][] = [];
  if (mode === 2) out.push(pad([`Source: ${table.citation ?? 'DC Hub, dchub.cloud, CC-BY-4.0'}`, table.asOf ? `as of ${table.asOf}` : ''], width));
  out.push(...tableToMatrix(table, mode !== 0));
  const all = [...(table.rows.length === 0 && !table.note ? [emptyText] : []), ...(table.note ? [table.note] : []), ...notes];
  for (const n of all) out.push(pad([n], width));
  return out;
}

