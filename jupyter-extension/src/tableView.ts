/**
 * How a table is shown (pure, no DOM): sorting and filtering rows, cell text, rows shaped on
 * demand, verdict colours. The grid and its model use these; Vitest runs them under plain Node.
 */
import type { Cell, Table } from '@dchub/core';

/** How a table is shown: which column sorts it (and which way) and a case-insensitive text filter. */
export interface ViewSpec {
  sortColumn: number | null;
  descending: boolean;
  filter: string;
}

export const DEFAULT_VIEW: ViewSpec = Object.freeze({ sortColumn: null, descending: false, filter: '' });

/** One collator for every text comparison: far cheaper than `localeCompare` with options per call. */
const COLLATOR = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Orders cells: numbers numerically before text, text by locale (numeric-aware), blanks last. */
export function compareCells(a: Cell | undefined, b: Cell | undefined): number {
  const blankA = a === undefined || a === '';
  const blankB = b === undefined || b === '';
  if (blankA || blankB) return blankA === blankB ? 0 : blankA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return COLLATOR.compare(String(a), String(b));
}

/** Text of a cell as shown and as matched by the filter. */
export function cellText(v: Cell | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e4) / 1e4);
  return String(v);
}

/**
 * Lower-cased text of every row (cells joined by NUL, so a word never spans two cells), built once
 * per table and kept while the table is: each keystroke of a filter then only searches strings.
 */
const SEARCH_TEXT = new WeakMap<readonly Cell[][], string[]>();

export function searchText(table: Table): string[] {
  let text = SEARCH_TEXT.get(table.rows);
  if (!text) {
    const n = table.rows.length;
    text = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const row = table.rows[i];
      let s = '';
      for (let j = 0; j < row.length; j++) {
        const c = row[j];
        s += (j ? '\u0000' : '') + (typeof c === 'string' ? c : cellText(c));
      }
      text[i] = s.toLowerCase();
    }
    SEARCH_TEXT.set(table.rows, text);
  }
  return text;
}

/**
 * Indices of the source rows to show, in display order: rows whose any cell contains every
 * whitespace-separated word of the filter, sorted stably by the sort column (blanks last
 * in either direction).
 */
export function viewRows(table: Table, view: ViewSpec): number[] {
  const words = view.filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const n = table.rows.length;
  let rows: number[] = [];
  if (!words.length) {
    rows = new Array<number>(n);
    for (let i = 0; i < n; i++) rows[i] = i;
  } else {
    const text = searchText(table);
    for (let i = 0; i < n; i++) if (words.every((w) => text[i].includes(w))) rows.push(i);
  }
  const col = view.sortColumn;
  if (col !== null && col >= 0 && col < table.columns.length) {
    const dir = view.descending ? -1 : 1;
    // Read the sort column once (a lazily shaped table builds each row once), then sort keys.
    const keyed = rows.map((i, pos) => ({ i, pos, v: table.rows[i][col] }));
    keyed.sort((x, y) => {
      const blankA = x.v === undefined || x.v === '';
      const blankB = y.v === undefined || y.v === '';
      if (blankA !== blankB) return blankA ? 1 : -1;
      return dir * compareCells(x.v, y.v) || x.pos - y.pos;
    });
    rows = keyed.map(({ i }) => i);
  }
  return rows;
}

/**
 * Rows of a table shaped on demand: `make(i)` runs the first time row `i` is read (painting reads
 * only the visible ones), then the row is kept. Behaves as a plain array (length, indexing,
 * iteration, map, slice), so every table consumer works unchanged.
 */
export function lazyRows(count: number, make: (i: number) => Cell[]): Cell[][] {
  const made = new Array<Cell[]>(count);
  const row = (i: number): Cell[] => made[i] ?? (made[i] = make(i));
  return new Proxy(made, {
    get(target, prop, receiver) {
      if (typeof prop === 'string') {
        const c = prop.charCodeAt(0);
        if (c >= 48 && c <= 57) {
          const i = Number(prop);
          if (Number.isInteger(i) && i < count) return row(i);
        }
        if (prop === 'length') return count;
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
    has(target, prop) {
      if (typeof prop === 'string' && /^\d+$/.test(prop)) return Number(prop) < count;
      return Reflect.has(target, prop);
    }
  });
}

/** The next view after a click on a column header: new column ascending, same column flips, third click clears. */
export function nextSort(view: ViewSpec, column: number): ViewSpec {
  if (view.sortColumn !== column) return { ...view, sortColumn: column, descending: false };
  if (!view.descending) return { ...view, descending: true };
  return { ...view, sortColumn: null, descending: false };
}

/** The table restricted to (and ordered like) `rows`, keeping citation, as-of and note. */
export function pickRows(table: Table, rows: readonly number[]): Table {
  return { ...table, rows: rows.map((i) => table.rows[i]) };
}

/** Colours of the brief verdicts (BUILD green, CAUTION amber, AVOID red). */
export const VERDICT_COLORS: Readonly<Record<string, string>> = Object.freeze({
  BUILD: '#2e7d32',
  CAUTION: '#b26a00',
  AVOID: '#c62828'
});

/** The colour of a verdict cell, or undefined for anything else. */
export function verdictColor(value: unknown): string | undefined {
  return typeof value === 'string' ? VERDICT_COLORS[value.trim().toUpperCase()] : undefined;
}
