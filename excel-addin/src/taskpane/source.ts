/**
 * The table a chart or the map is drawn from, found from the selection: a brief sheet the pane
 * wrote, a spilled DCHUB table (QUEUE, RANK, BRIEFS, …: the whole spill of the selected cell's
 * anchor), or else the block of cells around the selection (Excel's current region). Read back as
 * records with what the table says about itself: its citation and as-of (the lines above a brief
 * table or a `headers` 2 spill), and its closing rows (a preview, a stale answer), which a chart
 * shows as they are.
 */
import { DCPI_CITATION, matchingIn } from '@dchub/core';
import type { ChartData } from '@dchub/core/charts';
import { objectivesArg } from '../functions/args';
import { readBriefRecords } from './brief-sheet';
import { excelApi } from './formats';

type Ctx = Excel.RequestContext;

/** Where a source is: how to find it again when the chart is brought up to date. */
export interface SourceRef {
  how: 'table' | 'spill' | 'region';
  sheet: string;
  /** The spill's anchor, or a cell of the region (sheet-local, e.g. `B3`). */
  cell: string;
  table?: string;
}

export type SourceKind = 'queue' | 'markets' | 'ranking';

export interface Source extends ChartData {
  kind: SourceKind;
  ref: SourceRef;
  columns: string[];
  /** A RANK formula's objectives, when written in the formula as text ("capacity_mw:1,fiber_km:-0.5"). */
  objectives?: Record<string, number>;
  /** Where it is, as people read it: `Sheet1!A1#` for a spill. */
  label: string;
}

/** A column each kind of table has (headers as written by the functions and the pane). */
const KEY_COLUMNS = ['queue_id', 'market_slug', 'objective_score', 'composite_score'];

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const blank = (v: unknown) => v === '' || v === null || v === undefined;

/** A sheet name and cell of an address as Excel writes it (`'DC Hub briefs'!A4:C9` → `DC Hub briefs`, `A4`). */
export function splitAddress(address: string): { sheet: string; cell: string } {
  const at = address.lastIndexOf('!');
  const sheet = address
    .slice(0, at)
    .replace(/^'(.*)'$/, '$1')
    .replace(/''/g, "'");
  return { sheet, cell: address.slice(at + 1).split(':')[0] };
}

/**
 * A block of cells as records: the header row (the first of the top rows that names a key
 * column), the data rows under it, and the closing rows (text in the first cell only) as notes.
 * Lines above the header give the citation (`Source: …`) and the as-of (`As of …`).
 */
export function readBlock(values: readonly (readonly unknown[])[]): {
  columns: string[];
  rows: Record<string, unknown>[];
  notes: string[];
  citation?: string;
  asOf?: string;
} {
  const h = values.slice(0, 4).findIndex((r) => r.some((v) => KEY_COLUMNS.includes(text(v))));
  if (h < 0)
    throw new Error(
      'The selection is not in a DC Hub table with a header row (QUEUE, RANK, a brief sheet …; headers 1 or 2).',
    );
  let citation: string | undefined;
  let asOf: string | undefined;
  for (const line of values.slice(0, h).flat().map(text)) {
    const source = /^Source: (.+)$/.exec(line);
    const when = /^as of (.+)$/i.exec(line);
    if (source) citation = source[1].replace(/, as of .+$/i, '');
    if (when) asOf = when[1];
  }
  const columns = values[h].map(text);
  const rows: Record<string, unknown>[] = [];
  const notes: string[] = [];
  for (const r of values.slice(h + 1)) {
    if (r.every(blank)) continue;
    // A closing row (a note, a preview, the answer's age): one line in the first cell; data rows follow none.
    if (notes.length || (r.length > 1 && typeof r[0] === 'string' && r.slice(1).every(blank))) {
      notes.push(text(r[0]));
      continue;
    }
    rows.push(Object.fromEntries(columns.map((c, j) => [c, r[j]] as const).filter(([c]) => c !== '')));
  }
  return { columns, rows, notes, citation, asOf };
}

function kindOf(columns: readonly string[]): SourceKind {
  const has = (c: string) => columns.includes(c);
  if (has('objective_score')) return 'ranking';
  if (has('capacity_mw') && has('iso')) return 'queue';
  if (has('market_slug') || has('composite_score') || has('verdict')) return 'markets';
  throw new Error(
    `Nothing to draw from a table of ${columns.filter(Boolean).slice(0, 6).join(', ')}: select a QUEUE, RANK or brief table.`,
  );
}

/** The text of a formula's argument `index` (0-based), when it is a string literal. */
export function literalArgument(formula: string, index: number): string | undefined {
  const open = formula.indexOf('(');
  if (open < 0) return undefined;
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = '';
  for (const ch of formula.slice(open + 1)) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && (ch === '(' || ch === '{')) depth++;
    if (!quoted && (ch === ')' || ch === '}') && depth-- === 0) break;
    if (!quoted && depth === 0 && ch === ',') {
      args.push(cur);
      cur = '';
    } else cur += ch;
  }
  args.push(cur);
  const m = /^\s*"((?:[^"]|"")*)"\s*$/.exec(args[index] ?? '');
  return m ? m[1].replace(/""/g, '"') : undefined;
}

/** A RANK formula's weights, when its objectives are written in it (else the chart shows the score alone). */
function rankObjectives(formula: string | undefined): Record<string, number> | undefined {
  if (!formula || !/\bRANK\s*\(/i.test(formula)) return undefined;
  const literal = literalArgument(formula, 1);
  try {
    return literal ? objectivesArg(literal) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a source again (its values now) from where it was found. */
export async function readSource(context: Ctx, ref: SourceRef): Promise<Source> {
  const sheet = context.workbook.worksheets.getItem(ref.sheet);
  let range: Excel.Range;
  let anchor: Excel.Range | undefined;
  let ctx: Pick<ChartData, 'asOf' | 'citation'> = {};
  if (ref.how === 'table') {
    range = context.workbook.tables.getItem(ref.table!).getRange();
    const rec = (await readBriefRecords(context)).find((r) => r.table === ref.table);
    ctx = { asOf: rec?.asOf, citation: DCPI_CITATION };
  } else if (ref.how === 'spill') {
    anchor = sheet.getRange(ref.cell);
    anchor.load('formulas');
    range = anchor.getSpillingToRangeOrNullObject();
  } else range = sheet.getRange(ref.cell).getSurroundingRegion();
  range.load('values');
  await context.sync();
  // eslint-disable-next-line office-addins/load-object-before-read -- isNullObject is known after a sync, unloaded
  if (range.isNullObject) throw new Error(`${ref.sheet}!${ref.cell} no longer spills a table.`);
  const block = readBlock(range.values);
  const formula = anchor ? String(anchor.formulas[0]?.[0] ?? '') : undefined;
  const label = `${ref.sheet}!${ref.cell}${ref.how === 'spill' ? '#' : ''}${ref.table ? ` (table ${ref.table})` : ''}`;
  return {
    kind: kindOf(block.columns),
    ref,
    label,
    columns: block.columns,
    rows: block.rows,
    notes: block.notes,
    // A QUEUE the call's limit cut says how many matched in a closing row: the chart says what part it shows.
    matching: matchingIn(block.notes) ?? null,
    asOf: block.asOf ?? ctx.asOf,
    citation: block.citation ?? ctx.citation ?? undefined,
    objectives: rankObjectives(formula),
  };
}

/**
 * The source the selection is in: the brief table of the active sheet, else the spill of the
 * selected cell (ExcelApi 1.12), else the cells around it (ExcelApi 1.7).
 */
export async function selectedSource(context: Ctx): Promise<Source> {
  const selected = context.workbook.getSelectedRange();
  selected.load('address');
  const active = context.workbook.worksheets.getActiveWorksheet();
  active.load('name');
  await context.sync();
  const { sheet, cell } = splitAddress(selected.address);
  const brief = (await readBriefRecords(context)).find((r) => r.sheet === active.name);
  if (brief) {
    const t = context.workbook.tables.getItemOrNullObject(brief.table);
    await context.sync();
    if (!t.isNullObject) return readSource(context, { how: 'table', sheet, cell, table: brief.table });
  }
  if (excelApi('1.12')) {
    const parent = selected.getCell(0, 0).getSpillParentOrNullObject();
    parent.load('address');
    await context.sync();
    if (!parent.isNullObject) return readSource(context, { how: 'spill', ...splitAddress(parent.address) });
  }
  if (!excelApi('1.7'))
    throw new Error(
      'Select a cell of a DC Hub table; this version of Excel cannot find the table around it (ExcelApi 1.7).',
    );
  return readSource(context, { how: 'region', sheet, cell });
}
