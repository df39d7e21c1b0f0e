/**
 * The cell grid of the workbook model (./excel-mock.ts): sheets of cells (value, number format, fill, a spill's
 * formula), tables over them, A1 addresses, the log of writes and a workbook's state as plain data.
 * Like Excel, a leading apostrophe marks text and is not part of the stored value.
 */
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
