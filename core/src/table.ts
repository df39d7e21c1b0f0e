/** Plain cell values: what a spreadsheet cell or a DataFrame column can hold. */
export type Cell = string | number | boolean;

/** A shaped result: a stable column order, rows of plain values, and the citation alongside. */
export interface Table {
  columns: string[];
  rows: Cell[][];
  citation?: string;
  asOf?: string;
  /** A short note to show with the table (a hint, a preview caveat). */
  note?: string;
}

/** Numbers stay numbers, missing values become empty strings, objects become JSON text. */
export function cell(v: unknown): Cell {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? v : '';
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString();
  return JSON.stringify(v);
}

/** Picks `columns` from each record, in order. */
export function tableFromRecords(
  records: readonly Record<string, unknown>[],
  columns: readonly string[],
  extra: Omit<Table, 'columns' | 'rows'> = {},
): Table {
  const rows = new Array<Cell[]>(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    const row = new Array<Cell>(columns.length);
    for (let j = 0; j < columns.length; j++) row[j] = cell(r[columns[j]]);
    rows[i] = row;
  }
  return { columns: [...columns], rows, ...extra };
}

/** The table as a 2-D array, with the header row first unless `header` is false. */
export function tableToMatrix(t: Table, header = true): Cell[][] {
  return header ? [t.columns, ...t.rows] : t.rows;
}

/**
 * Reads a dotted path (`fiber.connectivity_score`, `members.0.acres`) through the value's own
 * members only: never the prototype chain (`constructor`, `__proto__`, `toString`, ...), and in a
 * list only an index it holds. A path the value lacks is undefined.
 */
export function readPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part) || Number(part) >= cur.length) return undefined;
      cur = cur[Number(part)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
      cur = (cur as Record<string, unknown>)[part];
    }
  }
  return cur;
}

/** Every scalar leaf of a nested object as `[path, value]`, in document order. */
export function flattenPaths(obj: unknown, prefix = ''): Array<[string, Cell]> {
  const out: Array<[string, Cell]> = [];
  if (obj === null || typeof obj !== 'object') return prefix ? [[prefix, cell(obj)]] : out;
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...flattenPaths(v, p));
    else out.push([p, cell(v)]);
  }
  return out;
}

/**
 * Records of a list answer as a table: `preferred` columns first (when present), then every other
 * scalar member in first-seen order; nested objects are left to field/value views.
 */
export function recordsTable(
  records: readonly Record<string, unknown>[],
  preferred: readonly string[] = [],
  extra: Omit<Table, 'columns' | 'rows'> = {},
): Table {
  const seen = new Set<string>();
  const columns: string[] = [];
  const add = (k: string) => {
    if (!seen.has(k)) {
      seen.add(k);
      columns.push(k);
    }
  };
  for (const k of preferred) if (records.some((r) => k in r)) add(k);
  for (const r of records) for (const [k, v] of Object.entries(r)) if (v === null || typeof v !== 'object') add(k);
  return tableFromRecords(records, columns, extra);
}

/** A field/value table of every scalar leaf (for single-record answers). */
export function fieldTable(obj: unknown, extra: Omit<Table, 'columns' | 'rows'> = {}): Table {
  return { columns: ['field', 'value'], rows: flattenPaths(obj).map(([k, v]) => [k, v]), ...extra };
}

/** ISO 8601 dates and times (a time without a zone is UTC, as pandas reads it with `utc=True`). */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** The latest of some ISO times (as given), or undefined: an answer's data time from its rows. */
export function latestTime(values: readonly unknown[]): string | undefined {
  let best: string | undefined;
  let bestAt = -Infinity;
  for (const v of values) {
    if (typeof v !== 'string' || !ISO_TIME.test(v.trim())) continue;
    const s = v.trim();
    const at = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(s) || s.length === 10 ? s : `${s}Z`);
    if (Number.isFinite(at) && at > bestAt) {
      best = s;
      bestAt = at;
    }
  }
  return best;
}
