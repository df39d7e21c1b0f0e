/**
 * A small workbook model behind office-addin-mock's OfficeMockObject: every object the task
 * pane's Excel code touches (context, workbook, worksheets, ranges, tables, settings) is an
 * OfficeMockObject, so reading a property without load()+sync() fails as it would in Excel.
 * Writes queued on ranges (values, numberFormat, fill colour) reach the cell grid on sync(),
 * in the order the ranges were created; loaded values are read from the grid at sync time.
 * Like Excel, a leading apostrophe marks text and is not part of the stored value.
 * The cell grid is in ./excel-mock-grid.ts, the range mocks and their sync in ./excel-mock-ranges.ts, the visuals in
 * ./excel-mock-visuals.ts; the grid's names are exported here too.
 */
import { OfficeMockObject } from 'office-addin-mock';
import { FakeSheet, type FakeTable, type Value, type WorkbookSnapshot, type Write } from './excel-mock-grid';
import {
  commitRangeWrites,
  fillRangeLoads,
  settleRangeLoads,
  trackedRange,
  written,
  type RangeHost,
  type Tracked,
} from './excel-mock-ranges';
import {
  addSpill,
  areaOfRef,
  chartsOf,
  commitCharts,
  type Area,
  type FakeChart,
  type FakeRule,
  type Spill,
} from './excel-mock-visuals';

export {
  a1,
  FakeSheet,
  type CellState,
  type FakeTable,
  type Value,
  type Write,
  type WorkbookSnapshot,
} from './excel-mock-grid';

export class FakeWorkbook implements RangeHost {
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
    const t = trackedRange(this, s, r, c, h, w);
    this.#ranges.push(t);
    return t.mock;
  }

  // ------------------------------------------------ for ./excel-mock-ranges, ./excel-mock-visuals and tests

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
    commitRangeWrites(this.#ranges, this.writes);
    commitCharts();
    for (const tm of this.#tableMocks) {
      if (written(tm.mock.name, tm.seenName)) {
        tm.table.name = tm.mock.name;
        tm.seenName = tm.mock.name;
      }
    }
    // 2. Loads see the grid as it is now.
    fillRangeLoads(this.#ranges);
    const all = [this.context, ...this.#mocks];
    for (const m of all) await OfficeMockObject.prototype.sync.call(m);
    await new Promise((r) => setTimeout(r, 0)); // the mock updates loaded properties in microtasks
    // What a load brought in is not a write.
    settleRangeLoads(this.#ranges);
    for (const [m, flag] of this.#nullFlags) m.isNullObject = flag;
    this.onSync?.();
  }
}
