/**
 * What the task pane writes into the workbook, as small functions that take the data and an
 * `Excel.RequestContext` (inside `Excel.run`), free of DOM code so that they can be unit tested
 * with office-addin-mock. Custom functions stay read-only: every write happens here, in ./brief-sheet
 * and in ./brief-refresh.
 *
 * Rules kept by every writer:
 * - text from the service goes through core's `neutralizeCell` (= + - @ first → written as text);
 * - the API key is never written anywhere in the workbook: the only workbook state is the brief
 *   tables' as-of (workbook settings and a stamp cell);
 * - only cells of the add-in's own columns are written on refresh; other columns (the user's,
 *   inside or beside the table) are never rewritten.
 */
import { cell, neutralizeCell, type Cell, type Table } from '@dchub/core';

/** Zero-based row of a written table's header: rows 1-3 carry the citation, as-of and a note. */
export const HEADER_ROW = 3;
export const DEFAULT_CITATION = 'DC Hub, dchub.cloud, CC-BY-4.0';
/** Number format of timestamps written as Excel dates. */
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm';
/** Format of a column: text, date or General. */
export type ColumnFormat = (column: string) => '@' | typeof DATE_FORMAT | 'General';
const CHUNK_ROWS = 1000; // keeps each request far below Excel on the web's 5 MB payload limit

export interface WrittenSheet {
  sheet: string;
  table: string;
  rows: number;
}

type Ctx = Excel.RequestContext;

/** Cells safe to write: plain values, text that would run as a formula neutralized. */
export const safeRow = (row: readonly unknown[]): Cell[] => row.map((v) => neutralizeCell(cell(v)));

// ---------------------------------------------------------------- workbook settings

/**
 * A list kept as JSON in a workbook setting (the pane's own records), the entries `keep` accepts; [] when absent or
 * unreadable.
 */
export async function readSettingList<T>(context: Ctx, key: string, keep: (r: T) => boolean): Promise<T[]> {
  const item = context.workbook.settings.getItemOrNullObject(key);
  item.load('value');
  await context.sync();
  if (item.isNullObject) return [];
  try {
    const v: unknown = typeof item.value === 'string' ? JSON.parse(item.value) : item.value;
    return Array.isArray(v) ? (v as T[]).filter((r) => r && keep(r)) : [];
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------- sheets and tables

/** The first free "<base>", "<base> (2)", … sheet name with its table name (both checked). */
export async function freeNames(
  context: Ctx,
  sheetBase: string,
  tableBase: string,
): Promise<{ sheet: string; table: string }> {
  const candidates = Array.from({ length: 20 }, (_, i) => ({
    sheet: i === 0 ? sheetBase : `${sheetBase} (${i + 1})`,
    table: i === 0 ? tableBase : `${tableBase}${i + 1}`,
  }));
  const probes = candidates.map((c) => {
    const s = context.workbook.worksheets.getItemOrNullObject(c.sheet);
    const t = context.workbook.tables.getItemOrNullObject(c.table);
    return { c, s, t }; // isNullObject is known after sync, without a load
  });
  await context.sync();
  const free = probes.find((p) => p.s.isNullObject && p.t.isNullObject);
  if (free) return free.c;
  const stamp = Date.now().toString(36);
  return { sheet: `${sheetBase} ${stamp}`.slice(0, 31), table: `${tableBase}_${stamp}` };
}

/**
 * A new sheet: `lines` (citation, as-of, note) in A1:A3, the table's header on row 4 and its rows
 * under it as an Excel table. Values are neutralized; text columns get the "@" (text) format.
 */
export async function writeTableSheet(
  context: Ctx,
  names: { sheet: string; table: string },
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  lines: readonly string[],
  format: ColumnFormat,
): Promise<Excel.Worksheet> {
  const sheet = context.workbook.worksheets.add(names.sheet);
  const head = lines.slice(0, HEADER_ROW);
  if (head.length) sheet.getRangeByIndexes(0, 0, head.length, 1).values = head.map((l) => [neutralizeCell(l)]);
  const width = columns.length;
  const formats = columns.map(format);
  const matrix: Cell[][] = [safeRow(columns), ...rows.map((r) => safeRow(columns.map((_, j) => r[j])))];
  for (let start = 0; start < matrix.length; start += CHUNK_ROWS) {
    const part = matrix.slice(start, start + CHUNK_ROWS);
    const range = sheet.getRangeByIndexes(HEADER_ROW + start, 0, part.length, width);
    range.numberFormat = part.map((_, i) => (start + i === 0 ? columns.map(() => '@') : formats));
    range.values = part;
  }
  const whole = sheet.getRangeByIndexes(HEADER_ROW, 0, matrix.length, width);
  const table = sheet.tables.add(whole, true);
  table.name = names.table;
  whole.format.autofitColumns();
  sheet.activate();
  await context.sync();
  return sheet;
}

/**
 * Writes a ranked table (a chain run, a ranking) on a new sheet with its citation, a line on
 * how it was made, its note, and what the service explained (`explanations`, a line each).
 */
export async function writeRankedSheet(
  context: Ctx,
  table: Table,
  opts: { summary?: string; sheetBase?: string; explanations?: readonly string[] } = {},
): Promise<WrittenSheet> {
  const names = await freeNames(context, opts.sheetBase ?? 'DC Hub ranking', 'DCHubRanking');
  const lines = [
    `Source: ${table.citation ?? DEFAULT_CITATION}`,
    opts.summary ?? `Ranked ${table.rows.length} sites${table.asOf ? `, as of ${table.asOf}` : ''}`,
  ];
  if (table.note) lines.push(table.note);
  lines.push(...(opts.explanations ?? []));
  const numeric = new Set(
    table.columns.filter(
      (_, j) => table.rows.length > 0 && table.rows.every((r) => typeof r[j] === 'number' || r[j] === ''),
    ),
  );
  await writeTableSheet(context, names, table.columns, table.rows, lines, (c) => (numeric.has(c) ? 'General' : '@'));
  return { ...names, rows: table.rows.length };
}

/** Asks Excel for a full recalculation, so DCHUB formulas ask again (after the cache was cleared). */
export async function recalculate(context: Ctx): Promise<void> {
  context.workbook.application.calculate('Full' as Excel.CalculationType);
  await context.sync();
}
