/**
 * Native Excel charts from a brief sheet or a spilled QUEUE / RANK table: the leaderboard
 * (clustered bars of the composite score), the queue mix (MW by ISO, stacked by fuel group) and a
 * ranking (contributions stacked, or the objective score). Each goes on a sheet of its own: core's
 * small table of the chart's numbers at A1, the chart bound to it with the series by columns
 * (said explicitly: Excel on the web guesses a two-column range the wrong way), and under the
 * chart the citation, the as-of and what was left out.
 *
 * Bringing a chart up to date rewrites its table from the source rather than binding the cells
 * by formulas (SUMIFS over `A1#`): the numbers follow core's rules (fuel groups, top N, weighted
 * contributions), which formulas would have to restate; a refresh can add ISOs, fuel groups or
 * markets, which a fixed block of formulas cannot grow to; and a spill's closing rows and a
 * preview's blank cells must be left out, not summed. The rewrite re-binds the chart
 * (`setData`, series by columns) and writes only when the numbers changed, so Excel's calculated
 * event, which triggers it, does not loop. Custom functions never draw: only the pane does.
 */
import { SUMMARIES, type ChartSummary, type SummaryName } from '@dchub/core/charts';
import { freeNames, readSettingList, safeRow } from './excel';
import { excelApi, formatColumns } from './formats';
import { readSource, selectedSource, type Source, type SourceRef } from './source';

type Ctx = Excel.RequestContext;
type Run = <T>(batch: (context: Ctx) => Promise<T>) => Promise<T>;

/** Workbook setting listing the charts the pane drew and where their data comes from (never the key). */
export const CHARTS_SETTINGS_KEY = 'dchub.charts';
export const CHART_NAME = 'DCHubChart';
/** The chart's size in cells, beside its table. */
const CHART_ROWS = 20;
const CHART_COLS = 9;

export interface ChartRecord {
  /** The chart's sheet (the chart is named CHART_NAME on it). */
  sheet: string;
  kind: SummaryName;
  source: SourceRef;
  top?: number;
  /** The table written last: its rows (header excluded) and columns, and the lines under the chart. */
  rows: number;
  cols: number;
  lines: number;
}

export interface InsertedChart {
  sheet: string;
  kind: SummaryName;
  type: NativeChart;
  rows: number;
  from: string;
  notes: string[];
}

/** The chart a source's table makes: the queue's mix, a ranking, else the markets' leaderboard. */
const kindOf = (s: Source): SummaryName =>
  s.kind === 'queue' ? 'queue_mix' : s.kind === 'ranking' ? 'ranking' : 'leaderboard';

const summarize = (kind: SummaryName, s: Source, top?: number): ChartSummary =>
  SUMMARIES[kind](s, { top, objectives: s.objectives });

/** Column charts for a mix over ISOs; bars (names read across) for markets and candidates. */
type NativeChart = 'ColumnStacked' | 'BarStacked' | 'BarClustered';
const chartType = (s: ChartSummary): NativeChart =>
  s.chart === 'queue_mix' ? 'ColumnStacked' : s.stacked ? 'BarStacked' : 'BarClustered';

const matrixOf = (s: ChartSummary): (string | number | boolean)[][] => [
  safeRow(s.columns),
  ...s.rows.map((r) => safeRow(r)),
];

/**
 * The lines under the chart: what part of the whole it shows (core's subtitle), where the data is from, as of when,
 * what was left out, what it was drawn from.
 */
function linesOf(s: ChartSummary, src: Source): string[] {
  const counts = s.subtitle ?? [];
  const source = [
    src.citation ? `Source: ${src.citation}` : 'Source: DC Hub, dchub.cloud, CC-BY-4.0',
    src.asOf ? `as of ${src.asOf}` : undefined,
  ];
  return [
    ...counts,
    source.filter(Boolean).join('; '),
    ...s.notes,
    ...(src.notes ?? []).filter((n) => !counts.includes(n)),
    `Drawn from ${src.label}; the pane brings it up to date when the table changes.`,
  ];
}

const readRecords = (context: Ctx): Promise<ChartRecord[]> =>
  readSettingList<ChartRecord>(
    context,
    CHARTS_SETTINGS_KEY,
    (r) => typeof r.sheet === 'string' && Boolean(r.source) && r.kind in SUMMARIES,
  );

const writeRecords = (context: Ctx, records: readonly ChartRecord[]) =>
  context.workbook.settings.add(CHARTS_SETTINGS_KEY, JSON.stringify(records));

/** Titles with units, the value axis of a score fixed at 0–100, one colour per series (never per point). */
function decorate(chart: Excel.Chart, s: ChartSummary, type: NativeChart): void {
  // The title says what part of the whole the chart shows, as the Vega-Lite chart's subtitle (its first line).
  chart.title.text = s.subtitle?.length ? `${s.title}\n${s.subtitle[0]}` : s.title;
  chart.axes.categoryAxis.title.text = s.categoryTitle;
  chart.axes.valueAxis.title.text = s.valueTitle;
  if (s.valueRange) {
    chart.axes.valueAxis.minimum = s.valueRange[0];
    chart.axes.valueAxis.maximum = s.valueRange[1];
  }
  // Bars start at the bottom: reversed, the first row of the table (the best) is on top, as in the table.
  if (type.startsWith('Bar') && excelApi('1.7')) chart.axes.categoryAxis.reversePlotOrder = true;
  s.colors.forEach((color, i) => chart.series.getItemAt(i).format.fill.setSolidColor(color));
  chart.legend.visible = s.charted > 2;
}

/** Writes the table at A1, the chart beside it and the lines under the chart; returns the chart's data range. */
function lay(sheet: Excel.Worksheet, chart: Excel.Chart, s: ChartSummary, lines: readonly string[]): Excel.Range {
  const matrix = matrixOf(s);
  const table = sheet.getRangeByIndexes(0, 0, matrix.length, s.columns.length);
  table.values = matrix;
  sheet.getRangeByIndexes(0, 0, 1, s.columns.length).format.font.bold = true;
  const col = s.columns.length + 1;
  chart.setPosition(
    sheet.getRangeByIndexes(0, col, 1, 1),
    sheet.getRangeByIndexes(CHART_ROWS - 1, col + CHART_COLS - 1, 1, 1),
  );
  sheet.getRangeByIndexes(CHART_ROWS, col, lines.length, 1).values = lines.map((l) => safeRow([l]));
  // Verdicts beside the bars keep their fills (the charted columns carry no rule: the chart is the picture).
  if (excelApi('1.6'))
    formatColumns(
      sheet,
      s.columns.map((c, j) => (j < s.charted ? '' : c)),
      0,
      1,
      s.rows.length,
    );
  return sheet.getRangeByIndexes(0, 0, matrix.length, s.charted);
}

/** Inserts the chart of the table the selection is in, on a new sheet; records where it came from. */
export async function insertChart(context: Ctx, opts: { top?: number } = {}): Promise<InsertedChart> {
  const src = await selectedSource(context);
  const kind = kindOf(src);
  const s = summarize(kind, src, opts.top);
  if (!s.rows.length)
    throw new Error(
      `Nothing to chart in ${src.label}: ${[...s.notes, ...(src.notes ?? [])].join(' ') || 'the table has no rows.'}`,
    );
  const records = await readRecords(context);
  const { sheet: name } = await freeNames(context, `DC Hub ${kind.replace('_', ' ')}`, `DCHub_${kind}`);
  const sheet = context.workbook.worksheets.add(name);
  const type = chartType(s);
  // A placeholder range for add(): lay() writes the table and binds the chart to it (series by columns).
  const lines = linesOf(s, src);
  const chart = sheet.charts.add(type, sheet.getRangeByIndexes(0, 0, s.rows.length + 1, s.charted), 'Columns');
  chart.name = CHART_NAME;
  lay(sheet, chart, s, lines);
  decorate(chart, s, type);
  writeRecords(context, [
    ...records,
    {
      sheet: name,
      kind,
      source: src.ref,
      top: opts.top,
      rows: s.rows.length,
      cols: s.columns.length,
      lines: lines.length,
    },
  ]);
  sheet.activate();
  await context.sync();
  return { sheet: name, kind, type, rows: s.rows.length, from: src.label, notes: [...s.notes, ...(src.notes ?? [])] };
}

export interface ChartUpdate {
  sheet: string;
  updated: boolean;
  error?: string;
}

const sameValues = (a: readonly (readonly unknown[])[], b: readonly (readonly unknown[])[]) =>
  a.length === b.length && a.every((r, i) => r.length === b[i].length && r.every((v, j) => v === b[i][j]));

/**
 * Brings the recorded charts (those `which` picks) up to date with their sources: a table whose
 * numbers changed is rewritten and the chart re-bound to it; a chart whose sheet was deleted is
 * forgotten; a source that no longer reads is reported and its chart left as it was.
 */
export async function updateCharts(
  context: Ctx,
  which: (r: ChartRecord) => boolean = () => true,
): Promise<ChartUpdate[]> {
  const records = await readRecords(context);
  const kept: ChartRecord[] = [];
  const out: ChartUpdate[] = [];
  for (const rec of records) {
    const sheet = context.workbook.worksheets.getItemOrNullObject(rec.sheet);
    // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one chart at a time: each reads its own source
    await context.sync();
    if (sheet.isNullObject) continue;
    kept.push(rec);
    if (!which(rec)) continue;
    try {
      const src = await readSource(context, rec.source);
      const s = summarize(rec.kind, src, rec.top);
      const lines = linesOf(s, src);
      const col = rec.cols + 1;
      const before = sheet.getRangeByIndexes(0, 0, rec.rows + 1, rec.cols);
      const linesBefore = sheet.getRangeByIndexes(CHART_ROWS, col, Math.max(1, rec.lines), 1);
      before.load('values');
      linesBefore.load('values');
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- as above
      await context.sync();
      const unchanged =
        sameValues(before.values, matrixOf(s)) &&
        sameValues(
          linesBefore.values.slice(0, rec.lines),
          lines.map((l) => safeRow([l])),
        );
      if (unchanged || !s.rows.length) {
        out.push({
          sheet: rec.sheet,
          updated: false,
          ...(s.rows.length
            ? {}
            : { error: `Nothing to chart in ${src.label} now; the chart keeps its last numbers.` }),
        });
        continue;
      }
      before.clear('Contents');
      linesBefore.clear('Contents');
      const chart = sheet.charts.getItem(CHART_NAME);
      const type = chartType(s);
      chart.setData(lay(sheet, chart, s, lines), 'Columns');
      decorate(chart, s, type);
      Object.assign(rec, { rows: s.rows.length, cols: s.columns.length, lines: lines.length });
      out.push({ sheet: rec.sheet, updated: true });
    } catch (err) {
      out.push({ sheet: rec.sheet, updated: false, error: err instanceof Error ? err.message : String(err) });
    }
  }
  // The records change only when a chart was forgotten or rewritten: otherwise the workbook is left untouched.
  if (kept.length !== records.length || out.some((u) => u.updated)) writeRecords(context, kept);
  await context.sync();
  return out;
}

/** The charts drawn from a brief table (brought up to date by that table's refresh). */
export const fromTable =
  (table: string) =>
  (r: ChartRecord): boolean =>
    r.source.table === table;

/**
 * While the pane is open, charts follow their spilled sources: Excel's calculated event (ExcelApi
 * 1.8) after a QUEUE or RANK recalculates, coalesced over `delayMs`. Returns a function that stops.
 */
export async function followSpilledSources(
  run: Run,
  onUpdate: (r: ChartUpdate[]) => void,
  delayMs = 1500,
): Promise<() => void> {
  if (!excelApi('1.8')) return () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const update = () =>
    run((ctx) => updateCharts(ctx, (r) => r.source.how !== 'table')).then(
      (r) => r.length && onUpdate(r),
      () => undefined, // the next calculation tries again
    );
  await run(async (ctx) => {
    ctx.workbook.worksheets.onCalculated.add(async () => {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(() => void update(), delayMs);
    });
    await ctx.sync();
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
