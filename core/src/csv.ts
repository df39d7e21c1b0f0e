import Papa from 'papaparse';
import type { Cell, Table } from './table.js';

/** Text that a spreadsheet would run as a formula: = + - @, tab or carriage return first. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralizes formula injection: text starting with = + - @ tab or CR gets a leading
 * apostrophe, so Excel and friends show it as text. Numbers are left alone (-5 is a number).
 */
export function neutralizeCell(v: Cell): Cell {
  // Text already shaped like a neutralized cell gets one more apostrophe, so restoring is exact.
  return typeof v === 'string' && (FORMULA_START.test(v) || NEUTRALIZED.test(v)) ? `'${v}` : v;
}
const NEUTRALIZED = /^'+[=+\-@\t\r]/;

/** Undoes neutralizeCell on text read back from a CSV this module wrote. */
export function restoreCell(v: string): string {
  return v[0] === "'" && (FORMULA_START.test(v.slice(1)) || NEUTRALIZED.test(v.slice(1))) ? v.slice(1) : v;
}

const field = (v: Cell): string => {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(neutralizeCell(v));
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
};

/** RFC 4180 CSV of a table (CRLF line ends, header row unless `header` is false). */
export function toCsv(table: Table, opts: { header?: boolean } = {}): string {
  const lines: string[] = [];
  if (opts.header !== false) lines.push(table.columns.map((c) => field(c)).join(','));
  for (const row of table.rows) lines.push(row.map(field).join(','));
  return lines.join('\r\n') + '\r\n';
}

/**
 * Parses a CSV written by toCsv back into a table of text cells (numbers as text, neutralized
 * formulas restored). Typed parsing of service CSVs lives with their schemas (briefs.ts).
 */
export function parseCsv(text: string): Table {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  const data = parsed.data.filter((r, i) => !(i === parsed.data.length - 1 && r.length === 1 && r[0] === ''));
  const [columns = [], ...rows] = data;
  return { columns: columns.map(restoreCell), rows: rows.map((r) => r.map(restoreCell)) };
}
