import { z } from 'zod';
import { SchemaDriftError } from '../errors.js';

/**
 * Tools of the tolerant reader: numbers written as decimal strings, lists under whichever key the
 * service used, records validated one at a time so that one bad record is named instead of losing
 * the whole answer.
 */

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** `"7.23"` → 7.23, `""` → null, numbers and null as they are; anything else undefined (not a number). */
export function toNumber(v: unknown): number | null | undefined {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') {
    if (v.trim() === '') return null;
    if (NUMERIC.test(v)) return Number(v);
  }
  return undefined;
}

type AnySchema = z.ZodType;

/** The schema under optional/nullable/default/catch/readonly wrappers and a pipe's typed side (public zod API only). */
function core(s: AnySchema): AnySchema {
  for (let i = 0; i < 8; i++) {
    if (
      s instanceof z.ZodOptional ||
      s instanceof z.ZodNullable ||
      s instanceof z.ZodDefault ||
      s instanceof z.ZodCatch ||
      s instanceof z.ZodReadonly ||
      s instanceof z.ZodNonOptional
    ) {
      s = s.unwrap() as AnySchema;
    } else if (s instanceof z.ZodPipe) {
      // A preprocess pipe (transform → schema) is typed by its output; a schema → transform pipe by its input.
      s = (s.out instanceof z.ZodTransform ? s.in : s.out) as AnySchema;
    } else return s;
  }
  return s;
}

const numericLeaf = new WeakMap<AnySchema, boolean>();
/** Whether a field wants a number (accepts 1, refuses "1"). */
function wantsNumber(s: AnySchema): boolean {
  let v = numericLeaf.get(s);
  if (v === undefined) {
    v = s.safeParse(1).success && !s.safeParse('1').success;
    numericLeaf.set(s, v);
  }
  return v;
}

/**
 * Coerces decimal strings into numbers wherever the schema wants a number (and `""` into null
 * where it takes null), recursively through objects, arrays and records. Unambiguous only: a
 * field that also takes text keeps its text.
 */
export function fitNumbers(schema: AnySchema, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === 'string') {
    if (!wantsNumber(schema)) return value;
    const n = toNumber(value);
    if (n === null) return schema.safeParse(null).success ? null : value;
    return n ?? value;
  }
  const s = core(schema);
  if (Array.isArray(value))
    return s instanceof z.ZodArray ? value.map((x) => fitNumbers(s.element as AnySchema, x)) : value;
  if (typeof value !== 'object') return value;
  if (s instanceof z.ZodObject) {
    let out: Record<string, unknown> | undefined;
    const shape = s.shape as Record<string, AnySchema>;
    for (const [k, field] of Object.entries(shape)) {
      const v = (value as Record<string, unknown>)[k];
      if (v === undefined || v === null) continue;
      const fitted = fitNumbers(field, v);
      if (fitted !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = fitted;
    }
    return out ?? value;
  }
  if (s instanceof z.ZodRecord) {
    const vt = s.valueType as AnySchema;
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fitNumbers(vt, v)]));
  }
  return value;
}

/** Where a zod issue points, as `a.b.0.c`. */
export const issuePath = (issue: z.core.$ZodIssue | undefined, prefix = ''): string =>
  [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');

/** What a zod issue says, in words for a person (the received value when it helps). */
export function issueWords(issue: z.core.$ZodIssue | undefined, input?: unknown): string {
  if (!issue) return 'unexpected shape';
  const at = readAt(input, issue.path);
  if (issue.code === 'invalid_type' && at === undefined) return 'missing';
  if (issue.code === 'invalid_type') return `expected ${issue.expected}, got ${describe(at)}`;
  return issue.message;
}

function readAt(v: unknown, path: readonly PropertyKey[]): unknown {
  let cur = v;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

const describe = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'a list'
      : typeof v === 'string'
        ? `text ${JSON.stringify(v.length > 30 ? `${v.slice(0, 29)}…` : v)}`
        : typeof v;

/**
 * Parses `value` with `schema`; on failure coerces decimal strings and tries again. Still failing:
 * SchemaDriftError naming the path (prefixed with `where`).
 */
export function parseTolerant<S extends AnySchema>(schema: S, value: unknown, where = ''): z.output<S> {
  const first = schema.safeParse(value);
  if (first.success) return first.data;
  const fitted = fitNumbers(schema, value);
  const second = fitted === value ? first : schema.safeParse(fitted);
  if (second.success) return second.data;
  const issue = second.error.issues[0];
  throw new SchemaDriftError(issuePath(issue, where), issueWords(issue, fitted), { body: value });
}

/** Like parseTolerant, without throwing: the parsed value, or why not. */
export function tryTolerant<S extends AnySchema>(
  schema: S,
  value: unknown,
): { ok: true; value: z.output<S> } | { ok: false; path: string; words: string } {
  try {
    return { ok: true, value: parseTolerant(schema, value) };
  } catch (err) {
    if (err instanceof SchemaDriftError)
      return { ok: false, path: err.path, words: err.message.replace(/^response did not match at [^:]*: /, '') };
    throw err;
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The record list of a list answer, wherever the service put it: under `key`, one of the legacy
 * envelope keys (`data`, `results`, `items`), or the answer itself when it is a bare list.
 * Returns the top-level object (a bare list becomes `{}`) and the list (undefined when none).
 */
export function findList(
  json: unknown,
  key: string,
  alternatives: readonly string[] = ['data', 'results', 'items'],
): { top: Record<string, unknown>; list: unknown[] | undefined; from?: string } {
  if (Array.isArray(json)) return { top: {}, list: json, from: '(list)' };
  if (!isRecord(json)) return { top: {}, list: undefined };
  if (Array.isArray(json[key])) return { top: json, list: json[key] as unknown[], from: key };
  for (const k of alternatives)
    if (k !== key && Array.isArray(json[k])) return { top: json, list: json[k] as unknown[], from: k };
  // `{success, data: {<key>: [...]}}`: a legacy envelope around the modern answer.
  if (isRecord(json.data)) {
    const inner = findList(json.data, key, alternatives);
    if (inner.list) return { top: { ...json, ...inner.top }, list: inner.list, from: `data.${inner.from}` };
  }
  return { top: json, list: undefined };
}

/**
 * findList for a list answer that cannot serve without its list: the top-level members (`head`,
 * without the list under whichever key it came) and the list, else SchemaDriftError at `key`.
 */
export function listAnswer(
  json: unknown,
  key: string,
  alternatives: readonly string[],
  what: string,
): { top: Record<string, unknown>; head: Record<string, unknown>; list: unknown[] } {
  const { top, list, from } = findList(json, key, alternatives);
  if (!list) throw new SchemaDriftError(key, `no list of ${what} in the answer`);
  const head: Record<string, unknown> = { ...top };
  if (from && from !== key) delete head[from];
  return { top, head, list };
}

/** Text that says something (trimmed), else undefined. */
export const textOf = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * How a record is named in the reader's warnings: `<what> <its field>` (`queue record A-1`), or with
 * `bare` the field alone (`Equinix DC1`); the record's place when the field is empty; at most `max` characters.
 */
export const nameBy =
  (what: string, field: string, o: { bare?: boolean; max?: number } = {}) =>
  (r: unknown, i: number): string => {
    const said = textOf(isRecord(r) ? r[field] : undefined)?.slice(0, o.max);
    return o.bare ? (said ?? `${what} ${i + 1}`) : `${what} ${said ?? i + 1}`;
  };

export interface RecordsOptions<T> {
  /** A person's name for one record ("chicago", "queue record PJM-2"). */
  name: (raw: unknown, index: number) => string;
  /** What the records are, for warnings ("brief", "facility"). */
  what: string;
  /** A record the service itself reports as failed: the reason in its words, else undefined. */
  failed?: (raw: unknown) => string | undefined;
  /** Mend a record before validation (aliases, derived ids); may add warnings. */
  mend?: (raw: Record<string, unknown>, warn: (w: string) => void, index: number) => Record<string, unknown>;
  /** Keep rows that fail validation as they are (default: skip them). */
  keepBad?: (raw: Record<string, unknown>) => T;
}

/** Validates each record; a bad one is skipped (or kept as-is) and named in `warnings`, never fatal. */
export function readRecords<S extends AnySchema>(
  list: readonly unknown[],
  schema: S,
  warnings: string[],
  o: RecordsOptions<z.output<S>>,
): Array<z.output<S>> {
  const out: Array<z.output<S>> = [];
  const warn = (w: string) => warnings.push(w);
  for (let i = 0; i < list.length; i++) {
    const raw = list[i];
    const failure = o.failed?.(raw);
    if (failure !== undefined) {
      warn(`${o.name(raw, i)}: ${failure} (left out)`);
      continue;
    }
    if (!isRecord(raw)) {
      warn(`${o.what} ${i + 1}: not a record (${raw === null ? 'null' : typeof raw}); left out`);
      continue;
    }
    const mended = o.mend ? o.mend(raw, warn, i) : raw;
    const r = tryTolerant(schema, mended);
    if (r.ok) out.push(r.value);
    else if (o.keepBad) {
      out.push(o.keepBad(mended));
      warn(`${o.name(raw, i)}: ${r.path || 'record'} ${r.words} (kept as served)`);
    } else warn(`${o.name(raw, i)}: ${r.path || 'record'} ${r.words} (left out)`);
  }
  return out;
}
