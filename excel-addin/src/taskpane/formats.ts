/**
 * Conditional formats of the sheets the pane writes: verdict fills in a verdict column, a data bar
 * on a composite score, a three-colour scale on months to power (low is good). The colours are
 * core's, so a verdict or a score looks the same in Excel as in every chart.
 *
 * Rules apply to a whole column of the table and are laid again after every refresh (cleared,
 * then added): Excel stretches a table column's rules over appended rows, but a rule added per
 * refresh would pile up, so N refreshes leave exactly the rules of one. Only the add-in's own
 * columns are touched. Custom functions never format cells; only the pane does.
 */
import { LOW_IS_GOOD, SCORE_COLOR, VERDICT_COLORS, VERDICT_ORDER } from '@dchub/core/charts';

type Ctx = Excel.RequestContext;

/** Whether this Excel has an ExcelApi requirement set (false outside Office). */
export function excelApi(version: string): boolean {
  const office = (
    globalThis as { Office?: { context?: { requirements?: { isSetSupported?: (s: string, v: string) => boolean } } } }
  ).Office;
  return Boolean(office?.context?.requirements?.isSetSupported?.('ExcelApi', version));
}

/** Conditional formats are ExcelApi 1.6 (Excel 2019, Microsoft 365, Excel on the web). */
export const FORMATS_API = '1.6';
export const NO_FORMATS = 'No conditional formats: this version of Excel lacks them (ExcelApi 1.6).';

/** A header as the rules name it: `Composite score` and `composite_score` are one column. */
const key = (header: unknown) => (typeof header === 'string' ? header : '').trim().toLowerCase().replace(/\s+/g, '_');

const VERDICT = new Set(['verdict']);
const SCORE = new Set(['composite_score']);
/** Months to power: briefs call it queue_wait_months, DCPI scores time_to_power_months. */
const MONTHS = new Set(['queue_wait_months', 'time_to_power_months', 'estimated_ttp_months']);

/** A fill per verdict (BUILD, CAUTION, AVOID), matched as text in any case. */
function verdictFills(range: Excel.Range): void {
  VERDICT_ORDER.forEach((verdict, i) => {
    const cf = range.conditionalFormats.add('ContainsText');
    cf.textComparison.format.fill.color = VERDICT_COLORS[i];
    cf.textComparison.rule = { operator: 'Contains', text: verdict };
  });
}

/** A solid bar on a fixed 0–100 axis, so that a score's bar means the same after a refresh. */
function scoreBar(range: Excel.Range): void {
  const cf = range.conditionalFormats.add('DataBar');
  cf.dataBar.barDirection = 'LeftToRight';
  cf.dataBar.lowerBoundRule = { type: 'Number', formula: '0' };
  cf.dataBar.upperBoundRule = { type: 'Number', formula: '100' };
  cf.dataBar.positiveFormat.fillColor = SCORE_COLOR;
  cf.dataBar.positiveFormat.gradientFill = false;
}

/** Lowest months in the BUILD colour, the median in CAUTION's, the highest in AVOID's. */
function monthsScale(range: Excel.Range): void {
  const cf = range.conditionalFormats.add('ColorScale');
  cf.colorScale.criteria = {
    minimum: { type: 'LowestValue', color: LOW_IS_GOOD.low },
    midpoint: { formula: '50', type: 'Percentile', color: LOW_IS_GOOD.mid },
    maximum: { type: 'HighestValue', color: LOW_IS_GOOD.high },
  };
}

/**
 * Lays the rules on the columns of a block whose header row is `headers` (sheet columns from `x0`,
 * data rows `y0`…`y0 + rows - 1`); the caller syncs. Returns the columns formatted.
 */
export function formatColumns(
  sheet: Excel.Worksheet,
  headers: readonly unknown[],
  x0: number,
  y0: number,
  rows: number,
): string[] {
  const done: string[] = [];
  if (rows < 1) return done;
  headers.forEach((h, j) => {
    const k = key(h);
    const rule = VERDICT.has(k) ? verdictFills : SCORE.has(k) ? scoreBar : MONTHS.has(k) ? monthsScale : undefined;
    if (!rule) return;
    const column = sheet.getRangeByIndexes(y0, x0 + j, rows, 1);
    column.conditionalFormats.clearAll(); // the rules of the last refresh, on these cells only
    rule(column);
    done.push(String(h));
  });
  return done;
}

/**
 * The rules of a brief table (after insert and after every refresh). Without ExcelApi 1.6 nothing
 * is done and the note says why.
 */
export async function formatBriefTable(context: Ctx, tableName: string): Promise<string | undefined> {
  if (!excelApi(FORMATS_API)) return NO_FORMATS;
  const table = context.workbook.tables.getItem(tableName);
  const header = table.getHeaderRowRange();
  header.load('values,columnIndex');
  const body = table.getDataBodyRange();
  body.load('rowIndex,rowCount');
  await context.sync();
  // eslint-disable-next-line office-addins/load-object-before-read -- a navigation property: a proxy, nothing to read
  formatColumns(table.worksheet, header.values[0] ?? [], header.columnIndex, body.rowIndex, body.rowCount);
  await context.sync();
  return undefined;
}
