/**
 * Brief sheets: the rows of /api/v1/market-brief/all.csv written as an Excel table, and the
 * workbook setting that remembers each such table and its as-of (never the key).
 */
import { BRIEF_CSV_COLUMNS, DCPI_CITATION, cell, neutralizeCell, type BriefCsvRowT, type Cell } from '@dchub/core';
import { excelSerial } from '../functions/dates';
import {
  DATE_FORMAT,
  freeNames,
  readSettingList,
  writeTableSheet,
  type ColumnFormat,
  type WrittenSheet,
} from './excel';
import { formatBriefTable } from './formats';

/** Workbook setting holding the brief tables the pane inserted (never the key). */
export const BRIEF_SETTINGS_KEY = 'dchub.briefTables';
/** The last column of a brief table: "changed …" / "added …" for rows touched by the last refresh. */
export const CHANGED_COLUMN = 'changed';
export const BRIEF_TABLE_COLUMNS: readonly string[] = [...BRIEF_CSV_COLUMNS, CHANGED_COLUMN];

const TEXT_COLUMNS = new Set(['market_slug', 'market_name', 'verdict', 'iso', 'state', 'top_operator', CHANGED_COLUMN]);
/** Timestamps written as Excel dates (serial numbers, UTC) with a date format. */
const DATE_COLUMNS = new Set(['live_as_of', 'computed_at']);
const briefFormat: ColumnFormat = (c) => (TEXT_COLUMNS.has(c) ? '@' : DATE_COLUMNS.has(c) ? DATE_FORMAT : 'General');
/** A brief value with its timestamps as serial numbers. */
const briefValue = (column: string, v: unknown): unknown =>
  DATE_COLUMNS.has(column) && typeof v === 'string' ? (excelSerial(v) ?? v) : v;
/** A brief value as written: dates as serial numbers, text neutralized. */
export const briefCell = (column: string, v: unknown): Cell => neutralizeCell(cell(briefValue(column, v)));

export interface BriefTableRecord {
  table: string;
  sheet: string;
  /** Newest computed_at in the table: the `since` of the next /diff. */
  asOf: string;
  insertedAt: string;
  refreshedAt?: string;
}

type Ctx = Excel.RequestContext;

/** The newest computed_at of the rows, or `from` when none is newer: a table's as-of. */
export const newestComputedAt = (rows: readonly { computed_at?: unknown }[], from = ''): string =>
  rows.reduce<string>((m, r) => (typeof r.computed_at === 'string' && r.computed_at > m ? r.computed_at : m), from);

export const readBriefRecords = (context: Ctx): Promise<BriefTableRecord[]> =>
  readSettingList<BriefTableRecord>(
    context,
    BRIEF_SETTINGS_KEY,
    (r) => typeof r.table === 'string' && typeof r.asOf === 'string',
  );

/** Queues the write of the records (the caller syncs). Only table/sheet names and times: no key. */
export function writeBriefRecords(context: Ctx, records: readonly BriefTableRecord[]): void {
  const clean = records.map(({ table, sheet, asOf, insertedAt, refreshedAt }) => ({
    table,
    sheet,
    asOf,
    insertedAt,
    ...(refreshedAt ? { refreshedAt } : {}),
  }));
  context.workbook.settings.add(BRIEF_SETTINGS_KEY, JSON.stringify(clean));
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
