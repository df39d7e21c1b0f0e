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
