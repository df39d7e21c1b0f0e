/**
 * The ranges of the workbook model (./excel-mock.ts): a range mock as the add-in gets it (values, formulas, number
 * formats, fill, spills, conditional formats), kept with its place in the grid so that sync() can apply the writes
 * queued on it and fill in what it loaded.
 */
import { a1, type FakeSheet, type Write } from './excel-mock-grid';
import {
  conditionalFormats,
  currentRegion,
  spillAt,
  type Area,
  type Spill,
  type VisualsHost,
} from './excel-mock-visuals';

const ERRORS = new Set(['Error, property was not loaded', 'Error, context.sync() was not called']);
/** A property the add-in set since it was last seen (an unloaded property's error text is not a value). */
export const written = (x: unknown, before: unknown) => x !== before && !(typeof x === 'string' && ERRORS.has(x));

/** A range mock handed out, its place in the grid and what its properties were when last seen. */
export interface Tracked {
  mock: any;
  sheet: FakeSheet;
  r: number;
  c: number;
  h: number;
  w: number;
  seen: { values: unknown; numberFormat: unknown; color: unknown; formulas: unknown };
}

/** What a range needs of its workbook (FakeWorkbook). */
export interface RangeHost extends VisualsHost {
  spills: Spill[];
  autofits: number;
}

/** A range mock over (r, c, h, w) of a sheet, tracked for sync. */
export function trackedRange(host: RangeHost, sheet: FakeSheet, r: number, c: number, h: number, w: number): Tracked {
  if (h < 1 || w < 1) throw new Error(`InvalidArgument: ${h}×${w} range`);
  const values = sheet.block(r, c, h, w);
  const numberFormat = values.map((row, i) => row.map((_, j) => sheet.cell(r + i, c + j).nf ?? 'General'));
  const color = sheet.cell(r, c).fill ?? '#FFFFFF';
  const formulas = values.map((row, i) => row.map((v, j) => sheet.cell(r + i, c + j).f ?? v));
  const area: Area = { sheet, r, c, h, w };
  const mock = host.mock({
    values,
    formulas,
    address: `${sheet.name}!${a1(r, c)}${h > 1 || w > 1 ? `:${a1(r + h - 1, c + w - 1)}` : ''}`,
    numberFormat,
    rowIndex: r,
    columnIndex: c,
    rowCount: h,
    columnCount: w,
    conditionalFormats: conditionalFormats(host, area),
    getCell: (i: number, j: number) => host.range(sheet, r + i, c + j, 1, 1),
    getSpillParentOrNullObject: () => {
      const sp = spillAt(host.spills, area);
      return sp ? host.range(sheet, sp.r, sp.c, 1, 1) : host.mock({ isNullObject: true });
    },
    getSpillingToRangeOrNullObject: () => {
      const sp = host.spills.find((x) => x.sheet === sheet && x.r === r && x.c === c);
      return sp ? host.range(sheet, sp.r, sp.c, sp.h, sp.w) : host.mock({ isNullObject: true });
    },
    getSurroundingRegion: () => {
      const g = currentRegion(sheet, r, c);
      return host.range(sheet, g.r, g.c, g.h, g.w);
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
        host.autofits++;
      },
    },
  });
  return {
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
  };
}

/** Queued writes reach the grid, in the order the ranges were created; values and formulas writes are logged. */
export function commitRangeWrites(ranges: readonly Tracked[], writes: Write[]): void {
  for (const t of ranges) {
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
      writes.push({ sheet: t.sheet.name, address: a1(t.r, t.c), kind: 'values', rows: t.h, cols: t.w });
    }
    if (written(m.formulas, t.seen.formulas)) {
      check(m.formulas, 'formulas');
      (m.formulas as unknown[][]).forEach((row, i) => row.forEach((v, j) => t.sheet.setValue(t.r + i, t.c + j, v)));
      t.seen.formulas = m.formulas;
      writes.push({ sheet: t.sheet.name, address: a1(t.r, t.c), kind: 'formulas', rows: t.h, cols: t.w });
    }
    const color = m.format.fill.color;
    if (written(color, t.seen.color)) {
      for (let i = 0; i < t.h; i++) for (let j = 0; j < t.w; j++) t.sheet.patch(t.r + i, t.c + j, { fill: color });
      t.seen.color = color;
    }
  }
}

/** Before the mocks' own sync: a range loading its values sees the grid as it is now. */
export function fillRangeLoads(ranges: readonly Tracked[]): void {
  for (const t of ranges) {
    const prop = t.mock._properties.get('values');
    if (prop && prop._loaded && !Array.isArray(t.mock.values)) {
      prop._valueBeforeLoaded = t.sheet.block(t.r, t.c, t.h, t.w);
    }
  }
}

/** After it: what a load brought in is not a write. */
export function settleRangeLoads(ranges: readonly Tracked[]): void {
  for (const t of ranges) {
    if (Array.isArray(t.mock.values)) t.seen.values = t.mock.values;
    if (Array.isArray(t.mock.formulas)) t.seen.formulas = t.mock.formulas;
    if (Array.isArray(t.mock.numberFormat)) t.seen.numberFormat = t.mock.numberFormat;
  }
}
