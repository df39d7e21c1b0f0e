import { ISO_TIME } from '../table.js';

/**
 * Typed columns for notebooks: which kind each column of an answer is (number, whole number, time,
 * yes/no, text) and its values in that kind, so a host builds a typed frame without knowing the
 * service's field names. Blanks stay blank (null), never 0; nothing is coerced that would lose a
 * value (a band such as `"10–50 MW"` keeps its column text).
 */

export type ColumnKind = 'number' | 'integer' | 'date' | 'boolean' | 'text';
export type ColumnValue = string | number | boolean | null;

export interface FrameColumn {
  name: string;
  kind: ColumnKind;
  values: ColumnValue[];
}

/** Fields whose values are numbers: a decimal string there (`"7.23"`, as the real service sends) is one. */
export const NUMERIC_FIELDS: ReadonlySet<string> = new Set([
  'capacity_mw', 'lat', 'lng', 'lon', 'fiber_km', 'estimated_ttp_months', 'composite_score', 'excess_power',
  'excess_power_score', 'constraint_score', 'queue_wait_months', 'operational_mw', 'pipeline_mw', 'vacancy_pct',
  'lease_rate', 'outlook_word_count', 'time_to_power_months', 'quality_score', 'total_power_mw', 'pipeline_mw_total',
  'avg_kwh_price_usd', 'power_mw', 'latitude', 'longitude', 'relevance_score', 'value', 'mw', 'capacity', 'investment',
  'percentage', 'total_queue_gw', 'large_load_queue_gw', 'objective_score', 'score', 'facility_count', 'operator_count',
  'total_installed_mw', 'ai_ready_mw', 'deployable_mw', 'acres', 'overall_score', 'year', 'rank', 'id', 'corridor_count',
  'model_replies', 'api_call_count', 'http_5xx_seen',
]); // prettier-ignore

/** Numeric fields that hold whole numbers (counts, ranks, ids, years). */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  'rank', 'id', 'facility_count', 'operator_count', 'outlook_word_count', 'year', 'corridor_count', 'model_replies',
  'api_call_count', 'http_5xx_seen',
]); // prettier-ignore

/** Fields that hold dates or times (and any field ending in `_at`). */
export const DATE_FIELDS: ReadonlySet<string> = new Set([
  'queue_date', 'live_as_of', 'computed_at', 'as_of', 'published_at', 'date', 'evaluated_at', 'timestamp',
  'discovered_at', 'total_queue_gw_as_of', 'generated_at', 'last_updated',
]); // prettier-ignore

/** Name endings of numeric fields in single records (`industrial_price_cents_kwh`, `fiber.connectivity_score`). */
const NUMERIC_ENDINGS = ['_cents_kwh', '_dollars_kwh', '_score', '_mw', '_pct', '_km', '_months'];

const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

const isBlank = (v: unknown): boolean =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || Number.isNaN(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Whether a field (a dotted path's last part) holds numbers. */
export function isNumericField(name: string): boolean {
  const leaf = name.slice(name.lastIndexOf('.') + 1);
  return NUMERIC_FIELDS.has(leaf) || NUMERIC_ENDINGS.some((e) => leaf.endsWith(e));
}

/** A value a cell holds: scalars as they are, a list of scalars joined with commas, anything else as JSON. */
export function scalarValue(v: unknown): ColumnValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'))
    return v.map((x) => (x === null || x === undefined ? '' : String(x))).join(', ');
  return JSON.stringify(v);
}

/** The kind of a column, from its name and every value present. */
export function columnKind(name: string, values: readonly ColumnValue[]): ColumnKind {
  const present = values.filter((v) => !isBlank(v));
  if (!present.length)
    return DATE_FIELDS.has(name)
      ? 'date'
      : NUMERIC_FIELDS.has(name)
        ? INTEGER_FIELDS.has(name)
          ? 'integer'
          : 'number'
        : 'text';
  if (present.every((v) => typeof v === 'boolean')) return 'boolean';
  const numeric = present.every((v) => isNumber(v) || (typeof v === 'string' && NUMBER_TEXT.test(v)));
  if (numeric && (NUMERIC_FIELDS.has(name) || present.some(isNumber))) {
    return INTEGER_FIELDS.has(name) && present.every((v) => Number.isInteger(Number(v))) ? 'integer' : 'number';
  }
  if (
    (DATE_FIELDS.has(name) || name.endsWith('_at')) &&
    present.every((v) => typeof v === 'string' && ISO_TIME.test(v.trim()))
  )
    return 'date';
  return 'text';
}

/** One column: its kind and its values in that kind (blanks as null). */
export function typedColumn(name: string, raw: readonly unknown[]): FrameColumn {
  const scalars = raw.map(scalarValue);
  const kind = columnKind(name, scalars);
  const values = scalars.map((v): ColumnValue => {
    if (isBlank(v)) return null;
    if (kind === 'number' || kind === 'integer') return Number(v);
    if (kind === 'date') return String(v).trim();
    if (kind === 'text') return String(v);
    return v;
  });
  return { name, kind, values };
}

/**
 * Records as typed columns: `preferred` first (every one with `only`, else those some record
 * has), then, unless `only`, every other member that is not private (`_…`) and not an object.
 */
export function frameColumns(
  records: readonly unknown[],
  preferred: readonly string[] = [],
  opts: { only?: boolean } = {},
): FrameColumn[] {
  const rows = records.filter(
    (r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r),
  );
  const names: string[] = [];
  const seen = new Set<string>();
  for (const c of preferred) {
    if (!seen.has(c) && (opts.only || !rows.length || rows.some((r) => c in r))) {
      seen.add(c);
      names.push(c);
    }
  }
  if (!opts.only) {
    for (const r of rows) {
      for (const [k, v] of Object.entries(r)) {
        if (seen.has(k) || k.startsWith('_') || (v !== null && typeof v === 'object' && !Array.isArray(v))) continue;
        seen.add(k);
        names.push(k);
      }
    }
  }
  return names.map((n) =>
    typedColumn(
      n,
      rows.map((r) => r[n]),
    ),
  );
}

/** Every scalar leaf of a nested record as `[dotted.path, value]`, in document order. */
export function flattenRecord(obj: unknown, prefix = ''): Array<[string, ColumnValue]> {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return prefix ? [[prefix, scalarValue(obj)]] : [];
  const out: Array<[string, ColumnValue]> = [];
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...flattenRecord(v, p));
    else out.push([p, scalarValue(v)]);
  }
  return out;
}

/**
 * A single record's fields (a Series): every scalar leaf but private ones (`_…`), blanks as null,
 * decimal strings of numeric fields as numbers.
 */
export function recordFields(obj: unknown): Array<[string, ColumnValue]> {
  return flattenRecord(obj)
    .filter(([k]) => !k.slice(k.lastIndexOf('.') + 1).startsWith('_'))
    .map(([k, v]): [string, ColumnValue] => [
      k,
      typeof v === 'string' && isNumericField(k) && NUMBER_TEXT.test(v) ? Number(v) : v,
    ]);
}
