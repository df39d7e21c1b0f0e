/**
 * Refreshing a brief table in place from a /diff answer: the add-in's own columns are rewritten,
 * the rows touched are filled and stamped, the user's columns are left alone.
 */
import {
  BRIEF_CSV_COLUMNS,
  briefToRow,
  scalarText,
  type BriefCsvRowT,
  type Cell,
  type MarketBriefT,
} from '@dchub/core';
import {
  BRIEF_TABLE_COLUMNS,
  CHANGED_COLUMN,
  briefCell,
  findBriefTable,
  newestComputedAt,
  readBriefRecords,
  writeBriefRecords,
} from './brief-sheet';
import { formatBriefTable } from './formats';

/** Fill of the rows the last refresh changed or added. */
export const CHANGED_FILL = '#FFF2CC';

type Ctx = Excel.RequestContext;

const isoMinute = (d = new Date()) => `${d.toISOString().slice(0, 16)}Z`;

export interface BriefRefresh {
  table: string;
  changed: string[];
  added: string[];
  unchanged: number;
  asOf: string;
  /** Why the conditional formats were not laid again, when they were not. */
  formats?: string;
}

const sameCell = (a: unknown, b: Cell): boolean => {
  if (typeof b === 'number' || typeof a === 'number') return a !== '' && b !== '' && Number(a) === Number(b);
  return (scalarText(a) ?? '') === String(b);
};

/** Contiguous runs of column indexes: [[start, length], …]. */
function runsOf(indexes: readonly number[]): Array<[number, number]> {
  const sorted = [...indexes].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const i of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === i) last[1]++;
    else runs.push([i, 1]);
  }
  return runs;
}

/** Where a brief table's own columns and rows are, read once from its header and body. */
interface BriefTableLayout {
  table: Excel.Table;
  sheet: Excel.Worksheet;
  header: Excel.Range;
  /** The add-in's columns by name → their index in the table (the user's columns are not here). */
  colOf: Map<string, number>;
  changedCol: number | undefined;
  /** The add-in's columns as contiguous runs, each written with one range. */
  runs: Array<[number, number]>;
  width: number;
  /** Sheet position of the first body cell. */
  x0: number;
  y0: number;
  existing: unknown[][];
  /** Body row of each market slug (its first). */
  rowOf: Map<string, number>;
}

/** Reads the table's header and body; refuses a table without its market_slug column. */
async function readLayout(context: Ctx, name: string): Promise<BriefTableLayout> {
  const table = context.workbook.tables.getItem(name);
  // A navigation property: a proxy to use, nothing to read.
  // eslint-disable-next-line office-addins/load-object-before-read, office-addins/call-sync-before-read
  const sheet = table.worksheet;
  const header = table.getHeaderRowRange();
  header.load('values,rowIndex,columnIndex');
  const body = table.getDataBodyRange();
  body.load('values,rowIndex,columnIndex,rowCount,columnCount');
  await context.sync();

  const headers = (header.values[0] ?? []).map((h) => String(h ?? '').trim());
  const colOf = new Map<string, number>();
  for (const c of BRIEF_TABLE_COLUMNS) {
    const j = headers.indexOf(c);
    if (j >= 0) colOf.set(c, j);
  }
  const slugCol = colOf.get('market_slug');
  if (slugCol === undefined) throw new Error(`Table ${name} has no market_slug column; insert a new brief sheet.`);
  const existing = body.values as unknown[][];
  const rowOf = new Map<string, number>();
  existing.forEach((r, i) => {
    const slug = scalarText(r[slugCol]) ?? '';
    if (slug && !rowOf.has(slug)) rowOf.set(slug, i);
  });
  return {
    table,
    sheet,
    header,
    colOf,
    changedCol: colOf.get(CHANGED_COLUMN),
    runs: runsOf([...colOf.values()]),
    width: headers.length,
    x0: body.columnIndex,
    y0: body.rowIndex,
    existing,
    rowOf,
  };
}

/** Clears the marks of the previous refresh: the fill of the own columns and the `changed` cell. */
function clearMarks(t: BriefTableLayout): void {
  const col = t.changedCol;
  if (col === undefined) return;
  t.existing.forEach((r, i) => {
    if ((scalarText(r[col]) ?? '') === '') return;
    for (const [c, n] of t.runs) t.sheet.getRangeByIndexes(t.y0 + i, t.x0 + c, 1, n).format.fill.clear();
    t.sheet.getRangeByIndexes(t.y0 + i, t.x0 + col, 1, 1).values = [['']];
  });
}

/** A brief's values in the add-in's columns (by column index), its `changed` cell saying `mark`. */
function ownValues(t: BriefTableLayout, row: BriefCsvRowT, mark: string): Map<number, Cell> {
  const m = new Map<number, Cell>();
  for (const [c, j] of t.colOf)
    m.set(j, c === CHANGED_COLUMN ? mark : briefCell(c, (row as Record<string, unknown>)[c]));
  return m;
}

/** Whether a brief differs from the table's row `i` in any of the add-in's columns. */
const differs = (t: BriefTableLayout, i: number, row: BriefCsvRowT): boolean =>
  BRIEF_CSV_COLUMNS.some((c) => {
    const j = t.colOf.get(c);
    return j !== undefined && !sameCell(t.existing[i][j], briefCell(c, (row as Record<string, unknown>)[c]));
  });

/** The briefs sorted against the table: rows that changed (with their index), new markets, and how many are alike. */
function compareBriefs(t: BriefTableLayout, diffRows: readonly (BriefCsvRowT | MarketBriefT)[]) {
  const changed: Array<{ row: BriefCsvRowT; i: number }> = [];
  const added: BriefCsvRowT[] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const input of diffRows) {
    const row = 'hero' in input ? briefToRow(input as MarketBriefT) : input;
    if (seen.has(row.market_slug)) continue;
    seen.add(row.market_slug);
    const i = t.rowOf.get(row.market_slug);
    if (i === undefined) added.push(row);
    else if (differs(t, i, row)) changed.push({ row, i });
    else unchanged++;
  }
  return { changed, added, unchanged };
}

/** Rewrites a changed row's own columns in place, filled and stamped. */
function writeChanged(t: BriefTableLayout, i: number, values: Map<number, Cell>): void {
  for (const [c, n] of t.runs) {
    const range = t.sheet.getRangeByIndexes(t.y0 + i, t.x0 + c, 1, n);
    range.values = [Array.from({ length: n }, (_, k) => values.get(c + k) ?? '')];
    range.format.fill.color = CHANGED_FILL;
  }
}

/** Appends the new markets at the end of the table, their own columns filled and stamped. */
function appendAdded(t: BriefTableLayout, added: readonly BriefCsvRowT[], stamp: string): void {
  if (!added.length) return;
  const matrix = added.map((row) => {
    const v = ownValues(t, row, `added ${stamp}`);
    return Array.from({ length: t.width }, (_, j) => v.get(j) ?? '');
  });
  t.table.rows.add(undefined, matrix); // appended at the end of the table
  const start = t.y0 + t.existing.length;
  for (let k = 0; k < added.length; k++)
    for (const [c, n] of t.runs) t.sheet.getRangeByIndexes(start + k, t.x0 + c, 1, n).format.fill.color = CHANGED_FILL;
}

/**
 * Moves the as-of stamp, two rows above the header (when the user has not moved things around), and beside it when
 * the table was last checked against the service, and how.
 */
async function stampAsOf(context: Ctx, t: BriefTableLayout, asOf: string, opts: RefreshOptions): Promise<void> {
  if (t.header.rowIndex < 2) return;
  const stampCell = t.sheet.getRangeByIndexes(t.header.rowIndex - 2, t.header.columnIndex, 1, 1);
  stampCell.load('values');
  await context.sync();
  if (!/^As of /.test(String(stampCell.values?.[0]?.[0] ?? ''))) return;
  stampCell.values = [[`As of ${asOf}`]];
  const refreshed = `Last refresh ${isoMinute(opts.now ? new Date(opts.now) : new Date())}${opts.automatic ? ' (automatic)' : ''}`;
  t.sheet.getRangeByIndexes(t.header.rowIndex - 2, t.header.columnIndex + 1, 1, 1).values = [[refreshed]];
}

/** The workbook's record of the table moves to the new as-of and refresh time. */
async function recordRefresh(context: Ctx, table: string, asOf: string, now: string | undefined): Promise<void> {
  const records = await readBriefRecords(context);
  writeBriefRecords(
    context,
    records.map((r) => (r.table === table ? { ...r, asOf, refreshedAt: now ?? new Date().toISOString() } : r)),
  );
}

interface RefreshOptions {
  table?: string;
  stamp?: string;
  now?: string;
  automatic?: boolean;
}

/**
 * Refreshes a brief table with the briefs of a /diff answer (or brief CSV rows): rows whose values
 * changed are updated in place, new markets appended; both are filled and stamped in the
 * `changed` column, and the previous refresh's marks are cleared. Only the add-in's own columns
 * are written (located by their header), so the user's columns — inside or beside the table —
 * are left alone. The as-of stamp and the workbook setting move to the newest computed_at.
 */
export async function refreshBriefSheet(
  context: Ctx,
  diffRows: readonly (BriefCsvRowT | MarketBriefT)[],
  opts: RefreshOptions = {},
): Promise<BriefRefresh> {
  const rec = await findBriefTable(context, opts.table);
  if (!rec) throw new Error('No DC Hub brief table in this workbook: insert a brief sheet first.');
  const t = await readLayout(context, rec.table);
  const stamp = opts.stamp ?? isoMinute();
  clearMarks(t);
  const { changed, added, unchanged } = compareBriefs(t, diffRows);
  for (const { row, i } of changed) writeChanged(t, i, ownValues(t, row, `changed ${stamp}`));
  appendAdded(t, added, stamp);

  const asOf = newestComputedAt(
    diffRows.map((r) => ('hero' in r ? { computed_at: (r as MarketBriefT).hero.computed_at } : r)),
    rec.asOf,
  );
  await stampAsOf(context, t, asOf, opts);
  await recordRefresh(context, rec.table, asOf, opts.now);
  await context.sync();
  const formats = await formatBriefTable(context, rec.table); // over the appended rows too, never one rule more
  return {
    table: rec.table,
    changed: changed.map((c) => c.row.market_slug),
    added: added.map((r) => r.market_slug),
    unchanged,
    asOf,
    ...(formats ? { formats } : {}),
  };
}
