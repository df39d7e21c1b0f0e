/**
 * Pure helpers of the panel: table views (sort, filter), file names, notebook snippets, brief
 * paging and proxy URLs. No DOM and no Lumino here, so Vitest runs them under plain Node.
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
  const made: Cell[][] = new Array(count);
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
      return Reflect.get(target, prop, receiver);
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

/** `YYYY-MM-DD` of a time in UTC. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A dated CSV name such as `dchub-queue-2026-11-21.csv` (kind reduced to a safe slug). */
export function datedFileName(kind: string, date: Date): string {
  const slug = kind.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'table';
  return `dchub-${slug}-${isoDay(date)}.csv`;
}

/** The n-th alternative of a file name when it is taken: `x.csv`, `x-2.csv`, `x-3.csv`, ... */
export function numberedFileName(name: string, n: number): string {
  if (n <= 1) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

/** The sibling that keeps a CSV's citation: `x.csv` -> `x.citation.txt`. */
export function citationFileName(csvPath: string): string {
  return csvPath.replace(/\.csv$/i, '') + '.citation.txt';
}

/** Joins a folder and a file name the way the Contents API names paths ('' is the root). */
export function joinPath(dir: string, name: string): string {
  const d = dir.replace(/^\/+|\/+$/g, '');
  return d ? `${d}/${name}` : name;
}

/** Columns that hold dates or times, for `parse_dates`. */
export const DATE_COLUMNS: readonly string[] = ['queue_date', 'live_as_of', 'computed_at', 'as_of', 'snapshot_date'];

/** The table's columns pandas should parse as dates. */
export function dateColumnsOf(table: Pick<Table, 'columns'>): string[] {
  return table.columns.filter((c) => DATE_COLUMNS.includes(c));
}

/** A Python string literal for `s` (JSON escapes are valid Python escapes). */
export function pyString(s: string): string {
  return JSON.stringify(s);
}

/** The code cell that loads an exported CSV as a DataFrame and prints its shape. */
export function pandasSnippet(relativePath: string, dateColumns: readonly string[]): string {
  const dates = dateColumns.length ? `, parse_dates=[${dateColumns.map(pyString).join(', ')}]` : '';
  return `import pandas as pd\ndf = pd.read_csv(${pyString(relativePath)}${dates})\nprint(df.shape)\ndf.head()`;
}

/** Markdown that travels with the data: what it is, where it came from, the citation. */
export function citationMarkdown(opts: { title: string; path: string; citation?: string; asOf?: string; rows: number; exportedAt: Date }): string {
  const lines = [`**${escapeMarkdown(opts.title)}**: ${opts.rows} rows exported to \`${opts.path}\` on ${opts.exportedAt.toISOString()}.`];
  if (opts.asOf) lines.push('', `Data as of ${escapeMarkdown(opts.asOf)}.`);
  lines.push('', `Source: ${escapeMarkdown(opts.citation ?? 'DC Hub, dchub.cloud')}`);
  return lines.join('\n');
}

/** The plain-text citation file written beside an exported CSV. */
export function citationText(opts: { title: string; csvName: string; citation?: string; asOf?: string; rows: number; exportedAt: Date }): string {
  const lines = [
    `${opts.title}: ${opts.csvName} (${opts.rows} rows)`,
    `Exported: ${opts.exportedAt.toISOString()}`
  ];
  if (opts.asOf) lines.push(`Data as of: ${opts.asOf}`);
  lines.push(`Citation: ${opts.citation ?? 'DC Hub, dchub.cloud'}`);
  return lines.join('\n') + '\n';
}

function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_[\]<>])/g, '\\$1');
}

/** Largest brief page a tier may ask for (spec: 50 below Pro, 500 from Pro). */
export function briefPageLimit(tier: string | undefined): number {
  const t = tier?.trim().toLowerCase();
  return t === 'pro' || t === 'enterprise' || t === 'founding' ? 500 : 50;
}

/** The relay root under a Jupyter server's base URL: `<base>/dchub/proxy/`. */
export function proxyBaseUrl(jupyterBaseUrl: string): string {
  return jupyterBaseUrl.replace(/\/+$/, '') + '/dchub/proxy/';
}

/** The relay's config endpoint under a Jupyter server's base URL. */
export function proxyConfigUrl(jupyterBaseUrl: string): string {
  return jupyterBaseUrl.replace(/\/+$/, '') + '/dchub/config';
}

/** The value the time-to-power hint suggests for `max_ttp_months`, if any. */
export function suggestedMaxTtp(result: {
  _error_mitigation?: { suggested_params?: Record<string, unknown> } | undefined;
  min_satisfiable_max_ttp_months?: number | null | undefined;
}): number | undefined {
  const s = result._error_mitigation?.suggested_params?.max_ttp_months;
  const n = typeof s === 'number' ? s : typeof s === 'string' ? Number(s) : NaN;
  if (Number.isFinite(n) && n > 0) return n;
  const m = result.min_satisfiable_max_ttp_months;
  return typeof m === 'number' && m > 0 ? m : undefined;
}

/** "3 min ago"-style age for a last-refreshed line. */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'just now';
  const s = Math.round(ms / 1000);
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

/** One row of the ranking objectives editor: a field and a signed weight as typed. */
export interface ObjectiveRow {
  field: string;
  weight: string;
}

/** One row of the ranking constraints editor: a field and optional bounds as typed. */
export interface ConstraintRow {
  field: string;
  min: string;
  max: string;
}

/**
 * Ranking candidates from table rows: `id` from `idColumn`, plus every numeric cell (metrics,
 * coordinates). Text cells other than the id are left out; the service ranks on numbers.
 */
export function candidatesFromRows(table: Table, rows: readonly number[], idColumn: string): Array<Record<string, Cell>> {
  const idIndex = table.columns.indexOf(idColumn);
  return rows.map((i) => {
    const row = table.rows[i] ?? [];
    const out: Record<string, Cell> = {};
    if (idIndex >= 0 && row[idIndex] !== '') out['id'] = row[idIndex];
    table.columns.forEach((c, j) => {
      if (j !== idIndex && typeof row[j] === 'number') out[c] = row[j];
    });
    return out;
  });
}

/** Fields that are numeric in at least one candidate (what objectives and constraints can use). */
export function numericFields(candidates: ReadonlyArray<Record<string, Cell>>): string[] {
  const seen = new Set<string>();
  for (const c of candidates) for (const [k, v] of Object.entries(c)) if (typeof v === 'number') seen.add(k);
  return [...seen];
}

/** `{field: weight}` from editor rows; blank rows are skipped, bad weights are left for core to report. */
export function objectivesFromRows(rows: readonly ObjectiveRow[]): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const r of rows) {
    const field = r.field.trim();
    if (!field || !r.weight.trim()) continue;
    const n = Number(r.weight);
    out[field] = Number.isFinite(n) ? n : r.weight;
  }
  return out;
}

/** `{field: {min?, max?}}` from editor rows; rows without a field or any bound are skipped. */
export function constraintsFromRows(rows: readonly ConstraintRow[]): Record<string, { min?: number | string; max?: number | string }> {
  const out: Record<string, { min?: number | string; max?: number | string }> = {};
  for (const r of rows) {
    const field = r.field.trim();
    if (!field) continue;
    const bound = (s: string) => (s.trim() === '' ? undefined : Number.isFinite(Number(s)) ? Number(s) : s);
    const min = bound(r.min);
    const max = bound(r.max);
    if (min === undefined && max === undefined) continue;
    out[field] = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  }
  return out;
}

/** The part of a JSON Schema property the MCP tool form uses. */
export interface ArgSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: ArgSchema[];
  oneOf?: ArgSchema[];
  description?: string;
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  default?: unknown;
}

const typesOf = (s: ArgSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/**
 * The schema with unions (`anyOf`/`oneOf`) folded in: the types of every member, and when every
 * member is a constant (`horizon`: 30 | 60 | 90) those constants as the choices, typed.
 */
export function resolveArgSchema(schema: ArgSchema): ArgSchema {
  const members = schema.anyOf ?? schema.oneOf;
  if (!members?.length) return schema.const !== undefined && !schema.enum ? { ...schema, enum: [schema.const] } : schema;
  const resolved = members.map(resolveArgSchema);
  const types = [...new Set([...typesOf(schema), ...resolved.flatMap(typesOf)])];
  const allChoices = resolved.every((m) => m.enum?.length);
  return {
    ...schema,
    type: types,
    enum: allChoices ? resolved.flatMap((m) => m.enum ?? []) : schema.enum,
    items: schema.items ?? resolved.find((m) => m.items)?.items
  };
}

/** How a tool argument is edited: a number box, a checkbox, a choice, a list, a list of records (JSON or shorthand) or text. */
export function argControl(raw: ArgSchema): 'number' | 'boolean' | 'enum' | 'list' | 'records' | 'text' {
  const schema = resolveArgSchema(raw);
  const types = typesOf(schema);
  if (schema.enum?.length) return 'enum';
  if (types.includes('boolean') && types.length === 1) return 'boolean';
  if (types.includes('array')) return typesOf(resolveArgSchema(schema.items ?? {})).includes('object') || schema.items?.properties ? 'records' : 'list';
  if ((types.includes('number') || types.includes('integer')) && !types.includes('string')) return 'number';
  if (types.includes('boolean') && !types.includes('string')) return 'boolean';
  return 'text';
}

/** A typed value from text for a schema that allows numbers (text that is no number stays text). */
function typedText(schema: ArgSchema, v: string): unknown {
  const types = typesOf(resolveArgSchema(schema));
  const n = Number(v);
  if ((types.includes('number') || types.includes('integer')) && v.trim() !== '' && Number.isFinite(n)) return n;
  if (types.includes('boolean') && (v === 'true' || v === 'false')) return v === 'true';
  return v;
}

/**
 * Records typed in a form: JSON (`[{"lat": 39, "lon": -77}]`) or the shorthand `39,-77; 40.1,-75.2`,
 * whose values fill the item's properties in their declared order (numbers where the schema says so).
 */
export function parseRecords(text: string, items: ArgSchema | undefined): unknown {
  const t = text.trim();
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      const parsed = JSON.parse(t) as unknown;
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return t; // the tool's validation names the argument
    }
  }
  const props = Object.entries(items?.properties ?? {});
  return t
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((rec) => {
      const out: Record<string, unknown> = {};
      rec.split(',').forEach((value, i) => {
        const [name, schema] = props[i] ?? [`field${i + 1}`, {}];
        const v = value.trim();
        if (v !== '') out[name] = typedText(schema, v);
      });
      return out;
    });
}

/**
 * Tool arguments from form values: blanks are left out, numbers, choices and lists converted to
 * the schema's types (unions included), unchecked boxes left out (the tool's default applies).
 * Text that is not a number stays text, so the server's validation can name the bad argument.
 */
export function toolArgs(properties: Record<string, ArgSchema>, values: Record<string, string | boolean>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties)) {
    const schema = resolveArgSchema(raw);
    const v = values[name];
    if (v === undefined || v === '' || v === false) continue;
    const kind = argControl(schema);
    if (kind === 'boolean') out[name] = v === true || v === 'true';
    else if (typeof v !== 'string') continue;
    else if (kind === 'number') out[name] = Number.isFinite(Number(v)) ? Number(v) : v;
    else if (kind === 'records') out[name] = parseRecords(v, resolveArgSchema(schema.items ?? {}));
    else if (kind === 'list') {
      const items = v.split(',').map((s) => s.trim()).filter(Boolean);
      out[name] = items.map((s) => typedText(schema.items ?? {}, s));
    } else if (kind === 'enum') {
      const match = schema.enum?.find((e) => String(e) === v);
      out[name] = match ?? v;
    } else out[name] = typedText(schema, v);
  }
  return out;
}
