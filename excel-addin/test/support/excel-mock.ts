/**
 * A small workbook model behind office-addin-mock's OfficeMockObject: every object the task
 * pane's Excel code touches (context, workbook, worksheets, ranges, tables, settings) is an
 * OfficeMockObject, so reading a property without load()+sync() fails as it would in Excel.
 * Writes queued on ranges (values, numberFormat, fill colour) reach the cell grid on sync(),
 * in the order the ranges were created; loaded values are read from the grid at sync time.
 * Like Excel, a leading apostrophe marks text and is not part of the stored value.
 */
import { OfficeMockObject } from 'office-addin-mock';
import {
  addSpill,
  areaOfRef,
  chartsOf,
  commitCharts,
  conditionalFormats,
  currentRegion,
  spillAt,
  type Area,
  type FakeChart,
  type FakeRule,
  type Spill,
  type VisualsHost,
} from './excel-mock-visuals';

export type Value = string | number | boolean;

export interface CellState {
  v: Value;
  /** Written with a leading apostrophe (kept as text). */
  quoted?: boolean;
  nf?: string;
  fill?: string;
  /** The formula of a spill's anchor. */
  f?: string;
}

const ERRORS = new Set(['Error, property was not loaded', 'Error, context.sync() was not called']);
const written = (x: unknown, before: unknown) => x !== before && !(typeof x === 'string' && ERRORS.has(x));

export class FakeSheet {
  readonly cells = new Map<string, CellState>();
  constructor(public name: string) {}
  cell(r: number, c: number): CellState {
    return this.cells.get(`${r},${c}`) ?? { v: '' };
  }
  value(r: number, c: number): Value {
    return this.cell(r, c).v;
  }
  patch(r: number, c: number, p: Partial<CellState>): void {
    const cur = { ...this.cell(r, c), ...p };
    if ('fill' in p && p.fill === undefined) delete cur.fill;
    this.cells.set(`${r},${c}`, cur);
  }
  setValue(r: number, c: number, v: unknown): void {
    if (typeof v === 'string' && v.startsWith("'")) this.patch(r, c, { v: v.slice(1), quoted: true });
    else this.patch(r, c, { v: v === null || v === undefined ? '' : (v as Value), quoted: false });
  }
  /** A block of values, rows × cols from (r, c). */
  block(r: number, c: number, rows: number, cols: number): Value[][] {
    return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => this.value(r + i, c + j)));
  }
  /** Values of row r from column c on, up to the last non-empty cell of the sheet's widest row. */
  row(r: number, c = 0, cols = this.width()): Value[] {
    return this.block(r, c, 1, cols)[0];
  }
  width(): number {
    let w = 0;
    for (const k of this.cells.keys()) w = Math.max(w, Number(k.split(',')[1]) + 1);
    return w;
  }
}

export interface FakeTable {
  name: string;
  sheet: FakeSheet;
  row: number;
  col: number;
  /** Rows including the header row. */
  rows: number;
  cols: number;
}

interface Tracked {
  mock: any;
  sheet: FakeSheet;
  r: number;
  c: number;
  h: number;
  w: number;
  seen: { values: unknown; numberFormat: unknown; color: unknown; formulas: unknown };
}

/** A1-style address of a cell (zero-based row and column). */
export const a1 = (r: number, c: number): string => {
  let col = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) col = String.fromCharCode(65 + ((n - 1) % 26)) + col;
  return `${col}${r + 1}`;
};

/** One write that reached the grid on sync (what Excel.run was asked to change). */
export interface Write {
  sheet: string;
  address: string;
  kind: 'values' | 'formulas';
  rows: number;
  cols: number;
}

export interface WorkbookSnapshot {
  sheets: Array<{ name: string; cells: Array<[string, CellState]> }>;
  tables: Array<Omit<FakeTable, 'sheet'> & { sheet: string }>;
  settings: Array<[string, unknown]>;
  active: string;
}

export class FakeWorkbook implements VisualsHost {
  readonly sheets: FakeSheet[] = [];
  /** Conditional formats and charts the pane made (./excel-mock-visuals). */
  readonly rules: FakeRule[] = [];
  readonly charts: FakeChart[] = [];
  readonly spills: Spill[] = [];
  /** The selected range (the active sheet's A1 unless a test moves it). */
  selection?: Area;
  /** Handlers of worksheets.onCalculated. */
  readonly calculatedHandlers: Array<(e: unknown) => unknown> = [];
  readonly tables: FakeTable[] = [];
  readonly settings = new Map<string, unknown>();
  readonly calculations: string[] = [];
  /** Every values/formulas write, in order. */
  readonly writes: Write[] = [];
  /** The active cell of the active sheet (zero-based). */
  activeCell = { r: 0, c: 0 };
  active: FakeSheet;
  syncs = 0;
  autofits = 0;
  readonly #ranges: Tracked[] = [];
  readonly #tableMocks: Array<{ mock: any; table: FakeTable; seenName: string }> = [];
  readonly context: any;
  /** `Excel`-like global: `run(batch)` calls the batch with this workbook's context. */
  readonly excel: any;

  constructor(sheetNames: string[] = ['Sheet1']) {
    for (const n of sheetNames) this.sheets.push(new FakeSheet(n));
    this.active = this.sheets[0];
    this.context = new OfficeMockObject({
      workbook: {
        worksheets: {
          add: (name: string) => {
            if (this.sheet(name)) throw new Error(`A sheet named ${name} already exists`);
            const s = new FakeSheet(name);
            this.sheets.push(s);
            return this.#sheetMock(s);
          },
          getItemOrNullObject: (name: string) => {
            const s = this.sheet(name);
            return s ? this.#sheetMock(s) : this.#track({ isNullObject: true });
          },
          getActiveWorksheet: () => this.#sheetMock(this.active),
          getItem: (name: string) => {
            const s = this.sheet(name);
            if (!s) throw new Error(`ItemNotFound: sheet ${name}`);
            return this.#sheetMock(s);
          },
          onCalculated: {
            add: (handler: (e: unknown) => unknown) => {
              this.calculatedHandlers.push(handler);
              return this.#track({});
            },
          },
        },
        tables: {
          getItemOrNullObject: (name: string) => {
            const t = this.table(name);
            return t ? this.#tableMock(t) : this.#track({ isNullObject: true });
          },
          getItem: (name: string) => {
            const t = this.table(name);
            if (!t) throw new Error(`ItemNotFound: table ${name}`);
            return this.#tableMock(t);
          },
        },
        settings: {
          add: (key: string, value: unknown) => {
            this.settings.set(key, value);
            return this.#track({ key, value });
          },
          getItemOrNullObject: (key: string) =>
            this.settings.has(key)
              ? this.#track({ isNullObject: false, key, value: this.settings.get(key) })
              : this.#track({ isNullObject: true, key, value: undefined }),
        },
        application: {
          calculate: (type: string) => {
            this.calculations.push(type);
          },
        },
        getActiveCell: () => this.#range(this.active, this.activeCell.r, this.activeCell.c, 1, 1),
        getSelectedRange: () => {
          const a = this.selection ?? { sheet: this.active, r: 0, c: 0, h: 1, w: 1 };
          return this.#range(a.sheet, a.r, a.c, a.h, a.w);
        },
      },
      sync: async () => this.#sync(),
    });
    this.excel = { run: async (batch: (ctx: any) => Promise<unknown>) => batch(this.context) };
  }

  /** Called after every sync (a stand-in that keeps the workbook across reloads saves it here). */
  onSync?: () => void;

  /** The workbook's state as plain data (cells, tables, settings), e.g. to reopen it later. */
  snapshot(): WorkbookSnapshot {
    return {
      sheets: this.sheets.map((s) => ({ name: s.name, cells: [...s.cells] })),
      tables: this.tables.map((t) => ({ ...t, sheet: t.sheet.name })),
      settings: [...this.settings],
      active: this.active.name,
    };
  }

  /** A workbook reopened from a snapshot. */
  static restore(snap: WorkbookSnapshot): FakeWorkbook {
    const wb = new FakeWorkbook(snap.sheets.map((s) => s.name));
    snap.sheets.forEach((s, i) => s.cells.forEach(([k, v]) => wb.sheets[i].cells.set(k, v)));
    for (const t of snap.tables) wb.tables.push({ ...t, sheet: wb.sheet(t.sheet)! });
    for (const [k, v] of snap.settings) wb.settings.set(k, v);
    wb.active = wb.sheet(snap.active) ?? wb.sheets[0];
    return wb;
  }

  sheet(name: string): FakeSheet | undefined {
    return this.sheets.find((s) => s.name === name);
  }
  table(name: string): FakeTable | undefined {
    return this.tables.find((t) => t.name === name);
  }

  /** Every mock handed out, so that sync() settles their loads. */
  readonly #mocks: any[] = [];
  /** isNullObject, known after any sync without a load (as in Office.js). */
  readonly #nullFlags = new Map<any, boolean>();
  #track(data: Record<string, unknown>): any {
    const { isNullObject, ...rest } = data;
    const m = new OfficeMockObject(rest);
    if (typeof isNullObject === 'boolean') {
      m.isNullObject = 'Error, context.sync() was not called';
      this.#nullFlags.set(m, isNullObject);
    }
    this.#mocks.push(m);
    return m;
  }

  #sheetMock(s: FakeSheet): any {
    return this.#track({
      name: s.name,
      isNullObject: false,
      getRangeByIndexes: (r: number, c: number, h: number, w: number) => this.#range(s, r, c, h, w),
      getRange: (ref: string) => {
        const a = this.cellRef(s, ref);
        return this.#range(s, a.r, a.c, a.h, a.w);
      },
      charts: chartsOf(this, s, () => this.#track({ isNullObject: true })),
      activate: () => {
        this.active = s;
      },
      tables: {
        add: (range: any, hasHeaders: boolean) => {
          const t = this.#ranges.find((x) => x.mock === range);
          if (!t || typeof range === 'string') throw new Error('tables.add: pass a Range from getRangeByIndexes');
          if (!hasHeaders) throw new Error('tables.add: expected a header row');
          const table: FakeTable = {
            name: `Table${this.tables.length + 1}`,
            sheet: s,
            row: t.r,
            col: t.c,
            rows: t.h,
            cols: t.w,
          };
          this.tables.push(table);
          return this.#tableMock(table);
        },
      },
    });
  }

  #tableMock(t: FakeTable): any {
    const mock = this.#track({
      name: t.name,
      isNullObject: false,
      worksheet: {
        name: t.sheet.name,
        getRangeByIndexes: (r: number, c: number, h: number, w: number) => this.#range(t.sheet, r, c, h, w),
      },
      getHeaderRowRange: () => this.#range(t.sheet, t.row, t.col, 1, t.cols),
      getRange: () => this.#range(t.sheet, t.row, t.col, t.rows, t.cols),
      getDataBodyRange: () => this.#range(t.sheet, t.row + 1, t.col, Math.max(1, t.rows - 1), t.cols),
      rows: {
        add: (index: number | undefined | null, values: unknown[][]) => {
          if (index !== undefined && index !== null) throw new Error('mock: only appending rows is modelled');
          for (const row of values) {
            if (row.length !== t.cols) throw new Error(`rows.add: ${row.length} values for ${t.cols} columns`);
            row.forEach((v, j) => t.sheet.setValue(t.row + t.rows, t.col + j, v));
            t.rows++;
          }
        },
      },
    });
    this.#tableMocks.push({ mock, table: t, seenName: mock.name });
    return mock;
  }

  #range(s: FakeSheet, r: number, c: number, h: number, w: number): any {
    if (h < 1 || w < 1) throw new Error(`InvalidArgument: ${h}×${w} range`);
    const sheet = s;
    const values = sheet.block(r, c, h, w);
    const numberFormat = values.map((row, i) => row.map((_, j) => sheet.cell(r + i, c + j).nf ?? 'General'));
    const color = sheet.cell(r, c).fill ?? '#FFFFFF';
    const formulas = values.map((row, i) => row.map((v, j) => sheet.cell(r + i, c + j).f ?? v));
    const area: Area = { sheet, r, c, h, w };
    const mock = this.#track({
      values,
      formulas,
      address: `${sheet.name}!${a1(r, c)}${h > 1 || w > 1 ? `:${a1(r + h - 1, c + w - 1)}` : ''}`,
      numberFormat,
      rowIndex: r,
      columnIndex: c,
      rowCount: h,
      columnCount: w,
      conditionalFormats: conditionalFormats(this, area),
      getCell: (i: number, j: number) => this.#range(sheet, r + i, c + j, 1, 1),
      getSpillParentOrNullObject: () => {
        const sp = spillAt(this.spills, area);
        return sp ? this.#range(sheet, sp.r, sp.c, 1, 1) : this.#track({ isNullObject: true });
      },
      getSpillingToRangeOrNullObject: () => {
        const sp = this.spills.find((x) => x.sheet === sheet && x.r === r && x.c === c);
        return sp ? this.#range(sheet, sp.r, sp.c, sp.h, sp.w) : this.#track({ isNullObject: true });
      },
      getSurroundingRegion: () => {
        const g = currentRegion(sheet, r, c);
        return this.#range(sheet, g.r, g.c, g.h, g.w);
      },
      clear: () => {
        for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) sheet.cells.delete(`${r + i},${c + j}`);
      },
      format: {
        fill: {
          color,
          clear: () => {
            for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) sheet.patch(r + i, c + j, { fill: undefined });
          },
        },
        font: { bold: false },
        autofitColumns: () => {
          this.autofits++;
        },
      },
    });
    this.#ranges.push({
      mock,
      sheet,
      r,
      c,
      h,
      w,
      seen: {
        values: mock.values,
        numberFormat: mock.numberFormat,
        color: mock.format.fill.color,
        formulas: mock.formulas,
      },
    });
    return mock;
  }

  // ------------------------------------------------ for ./excel-mock-visuals and tests

  mock(data: Record<string, unknown>): any {
    return this.#track(data);
  }
  areaOf(range: unknown): Area | undefined {
    const t = this.#ranges.find((x) => x.mock === range);
    return t ? { sheet: t.sheet, r: t.r, c: t.c, h: t.h, w: t.w } : undefined;
  }
  range(sheet: FakeSheet, r: number, c: number, h: number, w: number): any {
    return this.#range(sheet, r, c, h, w);
  }
  cellRef(sheet: FakeSheet, ref: string): Area {
    return areaOfRef(sheet, ref);
  }
  /**
   * A formula's spill at (r, c) of a sheet: its values in the grid, its formula on the anchor (a new spill replaces the
   * old).
   */
  spill(sheetName: string, r: number, c: number, values: Value[][], formula: string): void {
    addSpill(this.spills, this.sheet(sheetName)!, r, c, values, formula);
  }
  /** Excel calculated: the onCalculated handlers run (and are awaited). */
  async calculated(sheetName = this.active.name): Promise<void> {
    for (const h of this.calculatedHandlers) await h({ worksheetId: sheetName, type: 'WorksheetCalculated' });
  }

  async #sync(): Promise<void> {
    this.syncs++;
    // 1. Queued writes, in the order the ranges were created.
    for (const t of this.#ranges) {
      const m = t.mock;
      const check = (x: unknown[][], what: string) => {
        if (!Array.isArray(x) || x.length !== t.h || x.some((row) => !Array.isArray(row) || row.length !== t.w)) {
          throw new Error(`InvalidArgument: ${what} must be ${t.h}×${t.w}`);
        }
      };
      if (written(m.numberFormat, t.seen.numberFormat)) {
        check(m.numberFormat, 'numberFormat');
        (m.numberFormat as string[][]).forEach((row, i) =>
          row.forEach((nf, j) => t.sheet.patch(t.r + i, t.c + j, { nf })),
        );
        t.seen.numberFormat = m.numberFormat;
      }
      if (written(m.values, t.seen.values)) {
        check(m.values, 'values');
        (m.values as unknown[][]).forEach((row, i) => row.forEach((v, j) => t.sheet.setValue(t.r + i, t.c + j, v)));
        t.seen.values = m.values;
        this.writes.push({ sheet: t.sheet.name, address: a1(t.r, t.c), kind: 'values', rows: t.h, cols: t.w });
      }
      if (written(m.formulas, t.seen.formulas)) {
        check(m.formulas, 'formulas');
        (m.formulas as unknown[][]).forEach((row, i) => row.forEach((v, j) => t.sheet.setValue(t.r + i, t.c + j, v)));
        t.seen.formulas = m.formulas;
        this.writes.push({ sheet: t.sheet.name, address: a1(t.r, t.c), kind: 'formulas', rows: t.h, cols: t.w });
      }
      const color = m.format.fill.color;
      if (written(color, t.seen.color)) {
        for (let i = 0; i < t.h; i++) for (let j = 0; j < t.w; j++) t.sheet.patch(t.r + i, t.c + j, { fill: color });
        t.seen.color = color;
      }
    }
    commitCharts();
    for (const tm of this.#tableMocks) {
      if (written(tm.mock.name, tm.seenName)) {
        tm.table.name = tm.mock.name;
        tm.seenName = tm.mock.name;
      }
    }
    // 2. Loads see the grid as it is now.
    for (const t of this.#ranges) {
      const prop = t.mock._properties.get('values');
      if (prop && prop._loaded && !Array.isArray(t.mock.values)) {
        prop._valueBeforeLoaded = t.sheet.block(t.r, t.c, t.h, t.w);
      }
    }
    const all = [this.context, ...this.#mocks];
    for (const m of all) await OfficeMockObject.prototype.sync.call(m);
    await new Promise((r) => setTimeout(r, 0)); // the mock updates loaded properties in microtasks
    // What a load brought in is not a write.
    for (const t of this.#ranges) {
      if (Array.isArray(t.mock.values)) t.seen.values = t.mock.values;
      if (Array.isArray(t.mock.formulas)) t.seen.formulas = t.mock.formulas;
      if (Array.isArray(t.mock.numberFormat)) t.seen.numberFormat = t.mock.numberFormat;
    }
    for (const [m, flag] of this.#nullFlags) m.isNullObject = flag;
    this.onSync?.();
  }
}
