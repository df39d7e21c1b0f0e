/**
 * Everything the task pane writes into the workbook, as small functions that take the data and an
 * `Excel.RequestContext` (inside `Excel.run`), free of DOM code so that they can be unit tested
 * with office-addin-mock. Custom functions stay read-only: every write happens here.
 *
 * Rules kept by every writer:
 * - text from the service goes through core's `neutralizeCell` (= + - @ first → written as text);
 * - the API key is never written anywhere in the workbook: the only workbook state is the brief
 *   tables' as-of (workbook settings and a stamp cell);
 * - only cells of the add-in's own columns are written on refresh; other columns (the user's,
 *   inside or beside the table) are never rewritten.
 */
import {
  BRIEF_CSV_COLUMNS,
  DCPI_CITATION,
  briefToRow,
  cell,
  neutralizeCell,
  scalarText,
  type BriefCsvRowT,
  type Cell,
  type MarketBriefT,
  type Table,
} from '@dchub/core';
import { excelSerial } from '../functions/dates';
import { formatBriefTable } from './formats';

/** Workbook setting holding the brief tables the pane inserted (never the key). */
export const BRIEF_SETTINGS_KEY = 'dchub.briefTables';
/** The last column of a brief table: "changed …" / "added …" for rows touched by the last refresh. */
export const CHANGED_COLUMN = 'changed';
export const BRIEF_TABLE_COLUMNS: readonly string[] = [...BRIEF_CSV_COLUMNS, CHANGED_COLUMN];
/** Fill of the rows the last refresh changed or added. */
export const CHANGED_FILL = '#FFF2CC';
/** Zero-based row of a written table's header: rows 1-3 carry the citation, as-of and a note. */
export const HEADER_ROW = 3;
export const DEFAULT_CITATION = 'DC Hub, dchub.cloud, CC-BY-4.0';

const TEXT_COLUMNS = new Set(['market_slug', 'market_name', 'verdict', 'iso', 'state', 'top_operator', CHANGED_COLUMN]);
/** Timestamps written as Excel dates (serial numbers, UTC) with a date format. */
const DATE_COLUMNS = new Set(['live_as_of', 'computed_at']);
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm';
/** Format of a column: text, date or General. */
type ColumnFormat = (column: string) => '@' | typeof DATE_FORMAT | 'General';
const briefFormat: ColumnFormat = (c) => (TEXT_COLUMNS.has(c) ? '@' : DATE_COLUMNS.has(c) ? DATE_FORMAT : 'General');
/** A brief value with its timestamps as serial numbers. */
const briefValue = (column: string, v: unknown): unknown =>
  DATE_COLUMNS.has(column) && typeof v === 'string' ? (excelSerial(v) ?? v) : v;
/** A brief value as written: dates as serial numbers, text neutralized. */
const briefCell = (column: string, v: unknown): Cell => neutralizeCell(cell(briefValue(column, v)));
const CHUNK_ROWS = 1000; // keeps each request far below Excel on the web's 5 MB payload limit

export interface BriefTableRecord {
  table: string;
  sheet: string;
  /** Newest computed_at in the table: the `since` of the next /diff. */
  asOf: string;
  insertedAt: string;
  refreshedAt?: string;
}

export interface WrittenSheet {
  sheet: string;
  table: string;
  rows: number;
}

type Ctx = Excel.RequestContext;

/** Cells safe to write: plain values, text that would run as a formula neutralized. */
export const safeRow = (row: readonly unknown[]): Cell[] => row.map((v) => neutralizeCell(cell(v)));

const newestComputedAt = (rows: readonly { computed_at?: unknown }[], from = ''): string =>
  rows.reduce<string>((m, r) => (typeof r.computed_at === 'string' && r.computed_at > m ? r.computed_at : m), from);

const isoMinute = (d = new Date()) => `${d.toISOString().slice(0, 16)}Z`;

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

export const readBriefRecords = (context: Ctx): Promise<BriefTableRecord[]> =>
  readSettingList<BriefTableRecord>(
    context,
    BRIEF_SETTINGS_KEY,
    (r) => typeof r.table === 'string' && typeof r.asOf === 'string',
  );

/** Queues the write of the records (the caller syncs). Only table/sheet names and times: no key. */
function writeBriefRecords(context: Ctx, records: readonly BriefTableRecord[]): void {
  const clean = records.map(({ table, sheet, asOf, insertedAt, refreshedAt }) => ({
    table,
    sheet,
    asOf,
    insertedAt,
    ...(refreshedAt ? { refreshedAt } : {}),
  }));
  context.workbook.settings.add(BRIEF_SETTINGS_KEY, JSON.stringify(clean));
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
async function writeTableSheet(
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
 * Inserts a brief sheet: the rows of /api/v1/market-brief/all.csv as an Excel table with the DCPI
 * citation and as-of stamp above it, and records the table's as-of in the workbook settings.
 */
export async function insertBriefSheet(
  context: Ctx,
  rows: readonly BriefCsvRowT[],
  opts: { asOf?: string; now?: string } = {},
): Promise<WrittenSheet & { asOf: string; formats?: string }> {
  const asOf = opts.asOf ?? newestComputedAt(rows);
  const records = await readBriefRecords(context);
  const names = await freeNames(context, 'DC Hub briefs', 'DCHubBriefs');
  const cols = BRIEF_TABLE_COLUMNS;
  const data = rows.map((r) =>
    cols.map((c) => (c === CHANGED_COLUMN ? '' : briefValue(c, (r as Record<string, unknown>)[c]))),
  );
  await writeTableSheet(
    context,
    names,
    cols,
    data,
    [
      `Source: ${DCPI_CITATION}`,
      `As of ${asOf || 'unknown'}`,
      `Refresh from the DC Hub pane: changed rows are highlighted and stamped in "${CHANGED_COLUMN}"; your own columns are kept.`,
    ],
    briefFormat,
  );
  writeBriefRecords(context, [
    ...records.filter((r) => r.table !== names.table),
    { table: names.table, sheet: names.sheet, asOf, insertedAt: opts.now ?? new Date().toISOString() },
  ]);
  await context.sync();
  const formats = await formatBriefTable(context, names.table);
  return { ...names, rows: rows.length, asOf, ...(formats ? { formats } : {}) };
}

/**
 * The brief table to refresh: `table` when given, else the one on the active sheet, else the most
 * recently inserted one whose table still exists. Undefined when the workbook has none.
 */
export async function findBriefTable(context: Ctx, table?: string): Promise<BriefTableRecord | undefined> {
  const records = await readBriefRecords(context);
  if (table) return records.find((r) => r.table === table);
  const active = context.workbook.worksheets.getActiveWorksheet();
  active.load('name');
  const probes = records.map((r) => ({ r, t: context.workbook.tables.getItemOrNullObject(r.table) }));
  await context.sync();
  const alive = probes.filter((p) => !p.t.isNullObject).map((p) => p.r);
  return alive.find((r) => r.sheet === active.name) ?? alive[alive.length - 1];
}

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
  opts: { table?: string; stamp?: string; now?: string; automatic?: boolean } = {},
): Promise<BriefRefresh> {
  const rec = await findBriefTable(context, opts.table);
  if (!rec) throw new Error('No DC Hub brief table in this workbook: insert a brief sheet first.');
  const table = context.workbook.tables.getItem(rec.table);
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
  if (slugCol === undefined) throw new Error(`Table ${rec.table} has no market_slug column; insert a new brief sheet.`);
  const changedCol = colOf.get(CHANGED_COLUMN);
  const own = [...colOf.values()];
  const runs = runsOf(own);
  const width = headers.length;
  const x0 = body.columnIndex;
  const y0 = body.rowIndex;
  const existing = body.values as unknown[][];
  const rowOf = new Map<string, number>();
  existing.forEach((r, i) => {
    const slug = scalarText(r[slugCol]) ?? '';
    if (slug && !rowOf.has(slug)) rowOf.set(slug, i);
  });
  const stamp = opts.stamp ?? isoMinute();

  // Clear the marks of the previous refresh (own columns only).
  if (changedCol !== undefined) {
    existing.forEach((r, i) => {
      if ((scalarText(r[changedCol]) ?? '') === '') return;
      for (const [c, n] of runs) sheet.getRangeByIndexes(y0 + i, x0 + c, 1, n).format.fill.clear();
      sheet.getRangeByIndexes(y0 + i, x0 + changedCol, 1, 1).values = [['']];
    });
  }

  const ownValues = (row: BriefCsvRowT, mark: string): Map<number, Cell> => {
    const m = new Map<number, Cell>();
    for (const [c, j] of colOf)
      m.set(j, c === CHANGED_COLUMN ? mark : briefCell(c, (row as Record<string, unknown>)[c]));
    return m;
  };
  const writeRuns = (rowIndex: number, values: Map<number, Cell>) => {
    for (const [c, n] of runs) {
      const range = sheet.getRangeByIndexes(rowIndex, x0 + c, 1, n);
      range.values = [Array.from({ length: n }, (_, k) => values.get(c + k) ?? '')];
      range.format.fill.color = CHANGED_FILL;
    }
  };

  const changed: string[] = [];
  const added: BriefCsvRowT[] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const input of diffRows) {
    const row = 'hero' in input ? briefToRow(input as MarketBriefT) : input;
    if (seen.has(row.market_slug)) continue;
    seen.add(row.market_slug);
    const i = rowOf.get(row.market_slug);
    if (i === undefined) {
      added.push(row);
      continue;
    }
    const differs = BRIEF_CSV_COLUMNS.some((c) => {
      const j = colOf.get(c);
      return j !== undefined && !sameCell(existing[i][j], briefCell(c, (row as Record<string, unknown>)[c]));
    });
    if (!differs) {
      unchanged++;
      continue;
    }
    changed.push(row.market_slug);
    writeRuns(y0 + i, ownValues(row, `changed ${stamp}`));
  }

  if (added.length) {
    const matrix = added.map((row) => {
      const v = ownValues(row, `added ${stamp}`);
      return Array.from({ length: width }, (_, j) => v.get(j) ?? '');
    });
    table.rows.add(undefined, matrix); // appended at the end of the table
    const start = y0 + existing.length;
    for (let k = 0; k < added.length; k++) {
      for (const [c, n] of runs) sheet.getRangeByIndexes(start + k, x0 + c, 1, n).format.fill.color = CHANGED_FILL;
    }
  }

  const asOf = newestComputedAt(
    [...diffRows.map((r) => ('hero' in r ? { computed_at: (r as MarketBriefT).hero.computed_at } : r))],
    rec.asOf,
  );
  // The as-of stamp sits two rows above the header (when the user has not moved things around).
  if (header.rowIndex >= 2) {
    const stampCell = sheet.getRangeByIndexes(header.rowIndex - 2, header.columnIndex, 1, 1);
    stampCell.load('values');
    await context.sync();
    if (/^As of /.test(String(stampCell.values?.[0]?.[0] ?? ''))) {
      stampCell.values = [[`As of ${asOf}`]];
      // Beside it: when the table was last checked against the service, and how.
      const refreshed = `Last refresh ${isoMinute(opts.now ? new Date(opts.now) : new Date())}${opts.automatic ? ' (automatic)' : ''}`;
      sheet.getRangeByIndexes(header.rowIndex - 2, header.columnIndex + 1, 1, 1).values = [[refreshed]];
    }
  }
  const records = await readBriefRecords(context);
  writeBriefRecords(
    context,
    records.map((r) => (r.table === rec.table ? { ...r, asOf, refreshedAt: opts.now ?? new Date().toISOString() } : r)),
  );
  await context.sync();
  const formats = await formatBriefTable(context, rec.table); // over the appended rows too, never one rule more
  return {
    table: rec.table,
    changed,
    added: added.map((r) => r.market_slug),
    unchanged,
    asOf,
    ...(formats ? { formats } : {}),
  };
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
