/**
 * What the workbook model of ./excel-mock.ts adds for the pane's visuals: conditional formats on
 * ranges, charts on sheets, spilled ranges (anchor, spill, current region) and the
 * calculated event. Rules and charts are kept as plain state that tests read; every object handed
 * to the add-in is an OfficeMockObject (reading without load()+sync() fails as in Excel).
 */
import type { FakeSheet, Value } from './excel-mock-grid';

/** A block of cells: (r, c) and its height and width, zero-based. */
export interface Area {
  sheet: FakeSheet;
  r: number;
  c: number;
  h: number;
  w: number;
}

/** A conditional format as the add-in left it: its type, its range and the mock it wrote to. */
export interface FakeRule extends Area {
  type: string;
  cf: any;
}

export interface FakeChart {
  sheet: FakeSheet;
  name: string;
  type: string;
  seriesBy: string;
  source: Omit<Area, 'sheet'>;
  title?: string;
  categoryTitle?: string;
  valueTitle?: string;
  valueMin?: number;
  valueMax?: number;
  reversed?: boolean;
  position?: [string, string];
  /** Solid fill per series index. */
  colors: Record<number, string>;
  /** setData calls (a refresh rebinding the chart). */
  rebinds: number;
}

/** The state a host of these helpers gives them (FakeWorkbook). */
export interface VisualsHost {
  rules: FakeRule[];
  charts: FakeChart[];
  mock(data: Record<string, unknown>): any;
  /** The Area of a range mock the model handed out. */
  areaOf(range: unknown): Area | undefined;
  range(sheet: FakeSheet, r: number, c: number, h: number, w: number): any;
  cellRef(sheet: FakeSheet, ref: string): Area;
}

const ERRORS = new Set(['Error, property was not loaded', 'Error, context.sync() was not called']);
const set = (x: unknown) => x !== undefined && x !== '' && !(typeof x === 'string' && ERRORS.has(x));

const overlaps = (a: Area, b: Area) =>
  a.sheet === b.sheet && a.r < b.r + b.h && b.r < a.r + a.h && a.c < b.c + b.w && b.c < a.c + a.w;

/** `range.conditionalFormats`: add(type) makes a rule over the range, clearAll() drops the rules it touches. */
export function conditionalFormats(host: VisualsHost, area: Area): Record<string, unknown> {
  return {
    add: (type: string) => {
      const fill = () => ({ format: { fill: { color: '' }, font: { color: '' } }, rule: '' });
      const cf = host.mock({
        type,
        textComparison: fill(),
        cellValue: fill(),
        dataBar: {
          barDirection: '',
          lowerBoundRule: '',
          upperBoundRule: '',
          positiveFormat: { fillColor: '', gradientFill: true },
        },
        colorScale: { criteria: '' },
      });
      host.rules.push({ ...area, type, cf });
      return cf;
    },
    clearAll: () => {
      for (let i = host.rules.length - 1; i >= 0; i--) if (overlaps(host.rules[i], area)) host.rules.splice(i, 1);
    },
  };
}

/** A rule as plain data: what a test compares (only what the add-in wrote). */
export function ruleData(rule: FakeRule): Record<string, unknown> {
  const cf = rule.cf;
  const out: Record<string, unknown> = {
    type: rule.type,
    address: `${rule.sheet.name}!R${rule.r + 1}C${rule.c + 1}:R${rule.r + rule.h}C${rule.c + rule.w}`,
  };
  if (rule.type === 'ContainsText' || rule.type === 'CellValue') {
    const t = rule.type === 'ContainsText' ? cf.textComparison : cf.cellValue;
    out.fill = t.format.fill.color;
    out.rule = t.rule;
  }
  if (rule.type === 'DataBar') {
    const d = cf.dataBar;
    Object.assign(out, {
      color: d.positiveFormat.fillColor,
      gradient: d.positiveFormat.gradientFill,
      lower: d.lowerBoundRule,
      upper: d.upperBoundRule,
    });
  }
  if (rule.type === 'ColorScale') out.criteria = cf.colorScale.criteria;
  return Object.fromEntries(Object.entries(out).filter(([, v]) => set(v) || typeof v === 'boolean'));
}

/** Series a chart has over its source, as Excel counts them (the first column or row names the categories). */
const seriesCount = (c: FakeChart) =>
  c.seriesBy === 'Columns'
    ? c.source.w - 1
    : c.seriesBy === 'Rows'
      ? c.source.h - 1
      : Math.max(c.source.w, c.source.h) - 1;

/** Chart mocks handed out, each with the state it writes to at sync. */
const chartMocks: Array<{ mock: any; chart: FakeChart }> = [];

function chartMock(host: VisualsHost, chart: FakeChart): any {
  const mock = host.mock({
    name: chart.name,
    title: { text: chart.title ?? '' },
    axes: {
      categoryAxis: { title: { text: chart.categoryTitle ?? '' }, reversePlotOrder: chart.reversed ?? false },
      valueAxis: {
        title: { text: chart.valueTitle ?? '' },
        minimum: chart.valueMin ?? '',
        maximum: chart.valueMax ?? '',
      },
    },
    legend: { position: '', visible: true },
    series: {
      getItemAt: (i: number) => {
        if (i < 0 || i >= seriesCount(chart)) throw new Error(`InvalidArgument: series ${i} of ${seriesCount(chart)}`);
        return host.mock({ format: { fill: { setSolidColor: (color: string) => void (chart.colors[i] = color) } } });
      },
    },
    setPosition: (start: unknown, end: unknown) => {
      const name = (x: unknown) =>
        typeof x === 'string' ? x : host.areaOf(x) ? `R${host.areaOf(x)!.r + 1}C${host.areaOf(x)!.c + 1}` : '?';
      chart.position = [name(start), name(end)];
    },
    setData: (range: unknown, seriesBy: string) => {
      const a = host.areaOf(range);
      if (!a) throw new Error('setData: pass a Range');
      chart.source = { r: a.r, c: a.c, h: a.h, w: a.w };
      chart.seriesBy = seriesBy;
      chart.colors = {};
      chart.rebinds++;
    },
  });
  chartMocks.push({ mock, chart });
  return mock;
}

/** `worksheet.charts`: add(type, range, seriesBy), getItem(name), getItemOrNullObject(name). */
export function chartsOf(host: VisualsHost, sheet: FakeSheet, nullObject: () => any): Record<string, unknown> {
  return {
    add: (type: string, range: unknown, seriesBy: string) => {
      const a = host.areaOf(range);
      if (!a || a.sheet !== sheet) throw new Error('charts.add: pass a Range of this sheet');
      const chart: FakeChart = {
        sheet,
        name: `Chart ${host.charts.length + 1}`,
        type,
        seriesBy: seriesBy ?? 'Auto',
        source: { r: a.r, c: a.c, h: a.h, w: a.w },
        colors: {},
        rebinds: 0,
      };
      host.charts.push(chart);
      return chartMock(host, chart);
    },
    getItem: (name: string) => {
      const c = host.charts.find((x) => x.sheet === sheet && x.name === name);
      if (!c) throw new Error(`ItemNotFound: chart ${name}`);
      return chartMock(host, c);
    },
    getItemOrNullObject: (name: string) => {
      const c = host.charts.find((x) => x.sheet === sheet && x.name === name);
      return c ? chartMock(host, c) : nullObject();
    },
  };
}

/** At sync: what the add-in set on chart mocks reaches the chart's state. */
export function commitCharts(): void {
  for (const { mock, chart } of chartMocks) {
    const pick = <T>(v: unknown, cur: T): T => (set(v) ? (v as T) : cur);
    chart.name = pick(mock.name, chart.name);
    chart.title = pick(mock.title.text, chart.title);
    chart.categoryTitle = pick(mock.axes.categoryAxis.title.text, chart.categoryTitle);
    chart.valueTitle = pick(mock.axes.valueAxis.title.text, chart.valueTitle);
    chart.valueMin = pick(mock.axes.valueAxis.minimum, chart.valueMin);
    chart.valueMax = pick(mock.axes.valueAxis.maximum, chart.valueMax);
    chart.reversed =
      typeof mock.axes.categoryAxis.reversePlotOrder === 'boolean'
        ? mock.axes.categoryAxis.reversePlotOrder
        : chart.reversed;
  }
}

/** A spilled formula: its anchor and the block it fills. */
export interface Spill extends Area {
  formula: string;
}

/** The spill a cell belongs to, if any. */
export const spillAt = (spills: readonly Spill[], a: Area): Spill | undefined =>
  spills.find((s) => s.sheet === a.sheet && a.r >= s.r && a.r < s.r + s.h && a.c >= s.c && a.c < s.c + s.w);

/** Excel's current region: the cell's block of non-empty cells, grown until no neighbour is filled. */
export function currentRegion(sheet: FakeSheet, r: number, c: number): Omit<Area, 'sheet'> {
  let [r0, c0, r1, c1] = [r, c, r, c];
  const filled = (i: number, j: number) => i >= 0 && j >= 0 && sheet.value(i, j) !== '';
  for (let grew = true; grew;) {
    grew = false;
    const rowHas = (i: number) => Array.from({ length: c1 - c0 + 3 }, (_, k) => c0 - 1 + k).some((j) => filled(i, j));
    const colHas = (j: number) => Array.from({ length: r1 - r0 + 3 }, (_, k) => r0 - 1 + k).some((i) => filled(i, j));
    if (rowHas(r0 - 1) && r0 > 0) [r0, grew] = [r0 - 1, true];
    if (rowHas(r1 + 1)) [r1, grew] = [r1 + 1, true];
    if (colHas(c0 - 1) && c0 > 0) [c0, grew] = [c0 - 1, true];
    if (colHas(c1 + 1)) [c1, grew] = [c1 + 1, true];
  }
  return { r: r0, c: c0, h: r1 - r0 + 1, w: c1 - c0 + 1 };
}

/** `A1` or `A1:C3` (a `Sheet!` prefix is ignored) as an Area of the sheet. */
export function areaOfRef(sheet: FakeSheet, ref: string): Area {
  const cells = ref.replace(/^.*!/, '').replace(/\$/g, '').split(':');
  const at = (x: string) => {
    const m = /^([A-Z]+)(\d+)$/.exec(x.toUpperCase());
    if (!m) throw new Error(`InvalidArgument: ${ref}`);
    return { r: Number(m[2]) - 1, c: [...m[1]].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 };
  };
  const a = at(cells[0]);
  const e = cells.length > 1 ? at(cells[1]) : a;
  return { sheet, r: a.r, c: a.c, h: e.r - a.r + 1, w: e.c - a.c + 1 };
}

/** Spills `values` from (r, c) with `formula` on the anchor; a spill already there is cleared and replaced. */
export function addSpill(
  spills: Spill[],
  sheet: FakeSheet,
  r: number,
  c: number,
  values: Value[][],
  formula: string,
): void {
  const old = spills.findIndex((x) => x.sheet === sheet && x.r === r && x.c === c);
  if (old >= 0) {
    const o = spills[old];
    for (let i = 0; i < o.h; i++) for (let j = 0; j < o.w; j++) sheet.cells.delete(`${o.r + i},${o.c + j}`);
    spills.splice(old, 1);
  }
  values.forEach((row, i) => row.forEach((v, j) => sheet.setValue(r + i, c + j, v)));
  sheet.patch(r, c, { f: formula });
  spills.push({ sheet, r, c, h: values.length, w: values[0]?.length ?? 1, formula });
}
