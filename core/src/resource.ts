import type { z } from 'zod';
import type { Reader } from './read/decode.js';
import { fieldTable, recordsTable, tableFromRecords, type Table } from './table.js';
import { parseParams } from './validate.js';

/**
 * One endpoint of the DC Hub interface, written once: what the wire states (method, path with `:name`
 * path parameters, the schemas of its path parameters, query, body and answer) and what makes it
 * executable (how a caller's input becomes the request, its tolerant reader, whether its answer may
 * be cached, how the answer is shaped: its rows and columns or its record, citation, data time and
 * note). The sandbox serves and documents each endpoint from the same object; core's generic `call`
 * (resource-call.ts) runs it. What a preview withholds is read by the reader (`ctx.preview`, or the
 * gating markers every answer may carry); what the service explains, by `explainAnswer` from the answer.
 */
export interface Endpoint {
  method: 'get' | 'post';
  path: string;
  /** Further paths answering the same way. */
  aliases?: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Schema of the 200 answer (JSON); absent for text answers (CSV). */
  response?: z.ZodType;
  /**
   * Whether an answer is kept and served again for the same request: every GET unless `false` (asked
   * fresh unless the caller asks for the cache), a POST only when it is a pure computation (`true`).
   */
  cacheable?: boolean;
  /** What a caller gives, when it is not the query, body or path parameters as sent (a mode for two flags). */
  input?: z.ZodType;
}

/** A schema (validated as served, numeric strings coerced) or a resource's tolerant reader. */
export type AnswerReader<T> = Reader<T> | z.ZodType<T>;

/** What is sent: the path with its parameters filled in, the query, the body; the input as checked. */
export interface EndpointRequest {
  path: string;
  params?: URLSearchParams;
  body?: unknown;
  /** The input as its schema read it (derive reads the queue's filters from it). */
  parsed?: unknown;
}

/** The rows of a list answer and their columns: exactly these (`open` false) or these first, then other scalars. */
export interface TableShape<T, I> {
  /** The rows; `input` is what the caller asked, when known (the objectives of a ranking). */
  rows(answer: T, input?: Partial<I>): readonly object[];
  columns: readonly string[];
  /** Columns that depend on the rows or the input; default `columns`. */
  columnsFor?(rows: readonly Record<string, unknown>[], answer: T, input?: Partial<I>): readonly string[];
  open?: boolean;
}

/** What makes an endpoint executable (see Endpoint). */
export interface Executable<I, T> {
  /** The tolerant reader; default: the answer's schema. */
  reader?: AnswerReader<T>;
  /** The request for a caller's input (checked first: a bad argument spends nothing); default: `requestOf`. */
  request?(input: I, endpoint: Endpoint): EndpointRequest;
  /** A list answer's table; without it the answer is one record (`record`, default the answer itself). */
  table?: TableShape<T, I>;
  record?(answer: T): unknown;
  /** Default: what the answer cites (`citationIn`). */
  citation?(answer: T): string | undefined;
  asOf?(answer: T): string | undefined;
  note?(answer: T): string | undefined;
}

/** What a caller gives an endpoint: its `input`, else its query, body or path parameters. */
export type InputOf<E> = E extends { input: z.ZodType }
  ? z.input<E['input']>
  : E extends { query: z.ZodType }
    ? z.input<E['query']>
    : E extends { body: z.ZodType }
      ? z.input<E['body']>
      : E extends { params: z.ZodType }
        ? z.input<E['params']>
        : Record<string, never>;

type ResponseOf<W> = W extends { response: z.ZodType } ? z.output<W['response']> : unknown;

export type Resource<I = unknown, T = unknown> = Endpoint & Executable<I, T>;

/** What an endpoint answers, as its reader delivers it. */
export type AnswerOf<E> = E extends { reader: AnswerReader<infer T> } ? T : ResponseOf<E>;

/** An endpoint made executable: the wire's description and how it is run and shaped, in one object. */
export function resource<const W extends Endpoint, T = ResponseOf<W>>(
  wire: W,
  exec: Executable<InputOf<W>, T> = {},
): W & Executable<InputOf<W>, T> & { reader: W extends { response: z.ZodType } ? AnswerReader<T> : undefined } {
  const reader = exec.reader ?? wire.response;
  return { ...wire, ...exec, reader: reader as W extends { response: z.ZodType } ? AnswerReader<T> : undefined };
}

/** Whether an endpoint's answer may be kept and served again (Endpoint.cacheable). */
export const isCacheable = (e: Endpoint): boolean => e.cacheable ?? e.method === 'get';

/**
 * The path of an endpoint with its `:name` parameters filled in. Segments are given URI-encoded
 * (the argument checks of the calls encode them); a segment holding a `/` is refused.
 */
export function endpointPath(e: Endpoint, params: Record<string, string | number> = {}): string {
  return e.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || String(v).includes('/')) throw new Error(`endpointPath: ${e.path} needs an encoded ${name}`);
    return String(v);
  });
}

/**
 * The request of an endpoint whose input is its path parameters, each checked and encoded by
 * `check` (given the parameter's name, for its errors).
 */
export const pathRequest =
  (check: (name: string, value: unknown) => string | number) =>
  (input: object, e: Endpoint): EndpointRequest => {
    const given = input as Record<string, unknown>;
    const names = [...e.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
    return { path: endpointPath(e, Object.fromEntries(names.map((n) => [n, check(n, given[n])]))) };
  };

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/** A query from values in order: blanks (undefined, null, '') left out, lists comma-joined. */
export function searchParamsOf(values: Readonly<Record<string, QueryValue>>): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === '') continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return p;
}

/** Members that are set (a body's undefined ones are not sent). */
export const withoutUndefined = (o: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * The request for a caller's input: the endpoint's own `request`, else the input read by its query
 * (GET: every member as the schema reads it, in order) or body schema (POST: the body as read).
 */
export function requestOf<E extends Resource>(e: E, input: unknown): EndpointRequest {
  if (e.request) return e.request(input, e);
  const schema = e.method === 'get' ? e.query : e.body;
  const parsed: unknown = schema ? parseParams(schema, input ?? {}) : undefined;
  const values = (parsed ?? {}) as Record<string, QueryValue>;
  return e.method === 'get'
    ? { path: e.path, params: searchParamsOf(values), parsed }
    : { path: e.path, body: withoutUndefined(values), parsed };
}

// ---------------------------------------------------------------- shaping

/** What an answer says about itself, read once for every host (a table's citation, data time, note). */
export interface AnswerFacts {
  citation?: string;
  asOf?: string;
  note?: string;
}

/** A list answer as rows under columns (`open`: other scalar members follow the named columns). */
export interface ShapedTable extends AnswerFacts {
  shape: 'table';
  rows: readonly Record<string, unknown>[];
  columns: readonly string[];
  open: boolean;
}

/** A single answer as one record (every scalar leaf a field). */
export interface ShapedRecord extends AnswerFacts {
  shape: 'record';
  record: unknown;
}

export type Shaped = ShapedTable | ShapedRecord;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const member = (v: unknown, key: string): unknown =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;

/** What an answer cites: `_cite`, `citation` (text or its `cite_as`), `provenance.cite_as`. */
export function citationIn(answer: unknown): string | undefined {
  const c = member(answer, 'citation');
  return (
    text(member(answer, '_cite')) ??
    text(c) ??
    text(member(c, 'cite_as')) ??
    text(member(member(answer, 'provenance'), 'cite_as'))
  );
}

const facts = (f: AnswerFacts): AnswerFacts =>
  Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== null));

/** The answer shaped as its endpoint says: rows and columns, or one record; with its citation, data time and note. */
export function shapeAnswer<E extends Resource>(e: E, answer: AnswerOf<E>, input?: Partial<InputOf<E>>): Shaped {
  const said = facts({
    citation: e.citation ? e.citation(answer) : citationIn(answer),
    asOf: e.asOf?.(answer),
    note: e.note?.(answer),
  });
  if (!e.table) return { shape: 'record', record: e.record ? e.record(answer) : answer, ...said };
  const t = e.table;
  const rows = t.rows(answer, input) as readonly Record<string, unknown>[];
  const columns = t.columnsFor ? t.columnsFor(rows, answer, input) : t.columns;
  return { shape: 'table', rows, columns, open: t.open === true, ...said };
}

/** The shaped answer as a table: the rows' cells, or a record's field/value rows. */
export function tableOf(s: Shaped): Table {
  const { citation, asOf, note } = s;
  const extra = facts({ citation, asOf, note });
  if (s.shape === 'record') return fieldTable(s.record, extra);
  return s.open ? recordsTable(s.rows, s.columns, extra) : tableFromRecords(s.rows, s.columns, extra);
}

/** An endpoint's table of an answer (what the hosts spill, print and show). */
export const answerTable = <E extends Resource>(e: E, answer: AnswerOf<E>, input?: Partial<InputOf<E>>): Table =>
  tableOf(shapeAnswer(e, answer, input));

/** An endpoint's table function, as the hosts call it: an answer to its table. */
export const tableFor =
  <E extends Resource>(e: E) =>
  (answer: AnswerOf<E>, input?: Partial<InputOf<E>>): Table =>
    answerTable(e, answer, input);
