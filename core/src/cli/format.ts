import { toCsv } from '../csv.js';
import type { Cell, Table } from '../table.js';

export type OutputFormat = 'table' | 'csv' | 'json';

const show = (v: Cell): string => String(v).replace(/\s+/g, ' ');

/** Aligned text columns for a terminal; long cells are cut with an ellipsis. */
export function textTable(t: Table, maxWidth = 40): string {
  const cells = [t.columns, ...t.rows].map((r) =>
    r.map((v) => {
      const s = show(v);
      return s.length > maxWidth ? `${s.slice(0, maxWidth - 1)}…` : s;
    }),
  );
  const widths = t.columns.map((_, j) => Math.max(...cells.map((r) => (r[j] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((v, j) => (typeof t.rows[0]?.[j] === 'number' ? v.padStart(widths[j]) : v.padEnd(widths[j])))
      .join('  ')
      .trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n') + '\n';
}

/** Renders a result: a table in the chosen format, or the raw JSON answer. */
export function render(format: OutputFormat, table: Table, raw: unknown): string {
  if (format === 'json') return JSON.stringify(raw, null, 2) + '\n';
  if (format === 'csv') return toCsv(table);
  let out = textTable(table);
  if (table.note) out += `\n${table.note}\n`;
  if (table.citation) out += `\n${table.citation}\n`;
  return out;
}
