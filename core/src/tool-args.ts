import { z } from 'zod';
import { isBlank } from './args.js';
import { ValidationError } from './errors.js';
import { showValue as show } from './schemas/params.js';
import { MCP_TOOL_NAMES, McpToolInputs, type McpToolName } from './schemas/mcp.js';

/**
 * MCP tool arguments typed by the tool's input schema: what a user types (`horizon=60`,
 * `include_grid=TRUE`, `sites=[{"lat":39,"lon":-77},...]`) becomes what the schema asks for, once,
 * for every host (the CLI's key=value words, Excel's ranges and text, the panel's form).
 */

/** The part of JSON Schema (draft-07 and 2020-12) tool input schemas use. */
export interface ToolArgSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: ToolArgSchema[];
  oneOf?: ToolArgSchema[];
  items?: ToolArgSchema | ToolArgSchema[];
  properties?: Record<string, ToolArgSchema>;
  required?: string[];
  additionalProperties?: boolean | ToolArgSchema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  description?: string;
  default?: unknown;
}

/** A value an alternative takes, or what it would take (and, when the type fit but a bound did not, why). */
type Result = { ok: true; value: unknown } | { ok: false; expected: string; broken?: string };

const own = <T>(o: Record<string, T> | undefined, k: string): T | undefined =>
  o && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;

/** The alternatives of a schema: its anyOf/oneOf branches (flattened), or itself. */
function alternatives(s: ToolArgSchema): ToolArgSchema[] {
  const branches = s.anyOf ?? s.oneOf;
  if (!branches?.length) return [s];
  const { anyOf: _a, oneOf: _o, ...rest } = s;
  return branches.flatMap((b) => alternatives({ ...rest, ...b }));
}

const typesOf = (s: ToolArgSchema): string[] => {
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.const !== undefined)
    return [typeof s.const === 'number' ? 'number' : typeof s.const === 'boolean' ? 'boolean' : 'string'];
  if (s.enum?.length)
    return [
      ...new Set(s.enum.map((e) => (typeof e === 'number' ? 'number' : typeof e === 'boolean' ? 'boolean' : 'string'))),
    ];
  if (s.properties) return ['object'];
  if (s.items) return ['array'];
  return [];
};

/** Text equal to a choice (numbers by value, text ignoring case and spaces). */
const sameChoice = (choice: unknown, v: unknown): boolean =>
  choice === v ||
  (typeof v === 'string' &&
    (String(choice) === v.trim() || (typeof choice === 'string' && choice.toLowerCase() === v.trim().toLowerCase())));

function numberBounds(s: ToolArgSchema, n: number): string | undefined {
  const exMin =
    typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : s.exclusiveMinimum === true ? s.minimum : undefined;
  const exMax =
    typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : s.exclusiveMaximum === true ? s.maximum : undefined;
  if (exMin !== undefined && !(n > exMin)) return `greater than ${exMin}`;
  if (exMax !== undefined && !(n < exMax)) return `less than ${exMax}`;
  if (s.minimum !== undefined && exMin === undefined && n < s.minimum) return `at least ${s.minimum}`;
  if (s.maximum !== undefined && exMax === undefined && n > s.maximum) return `at most ${s.maximum}`;
  return undefined;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const WHOLE = /^[+-]?\d+$/;

/** One value as an alternative's type reads it: what it was given, the text and JSON text it holds. */
interface Given {
  s: ToolArgSchema;
  v: unknown;
  path: string;
  /** The value as trimmed text, when it is text. */
  text: string | undefined;
  /** The text parsed as JSON, when it looks like a list or an object. */
  json: unknown;
  /** Another alternative takes the text as it is (then a list is never split from it). */
  textTaken: boolean;
}

/** A type's reading: the value, a bound it broke (the type fit), or nothing (the type does not fit). */
type Reading = { ok: true; value: unknown } | { broken: string } | undefined;

/** A number the schema's bounds allow, or why not. */
function readNumber(g: Given, isInt: boolean): Reading {
  const { v, text } = g;
  const n =
    typeof v === 'number' ? v : text !== undefined && (isInt ? WHOLE : DECIMAL).test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n) || (isInt && !Number.isInteger(n))) return undefined;
  const out = numberBounds(g.s, n);
  return out ? { broken: `must be ${out}, got ${n}` } : { ok: true, value: n };
}

/** A list: an array, JSON text, or plain text split on commas (unless the schema also takes the text as it is). */
function readList({ s, v, text, json, path, textTaken }: Given): Reading {
  let list: unknown[] | undefined = Array.isArray(v) ? v : Array.isArray(json) ? json : undefined;
  // A blank item (`VA, TX,` as people type it) adds nothing, as in core's list parameters.
  if (!list && text !== undefined && json === undefined && !textTaken)
    list = text
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  if (!list) return undefined;
  const item = Array.isArray(s.items) ? undefined : s.items;
  const items = item ? list.map((x, i) => coerceValue(item, x, `${path}.${i}`)) : list;
  if (s.minItems !== undefined && items.length < s.minItems)
    throw new ValidationError(path, `needs at least ${s.minItems} items, got ${items.length}`);
  if (s.maxItems !== undefined && items.length > s.maxItems)
    throw new ValidationError(path, `takes at most ${s.maxItems} items, got ${items.length}`);
  return { ok: true, value: items };
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Text: text as it is, a number or a boolean as text, a list of plain values joined with commas. */
function readText({ s, v }: Given): Reading {
  const str =
    typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')
          ? v.join(',')
          : undefined;
  if (str === undefined) return undefined;
  if (s.maxLength !== undefined && str.length > s.maxLength)
    return { broken: `must be at most ${s.maxLength} characters, got ${str.length}` };
  if (s.minLength !== undefined && str.length < s.minLength)
    return { broken: `must be at least ${s.minLength} characters` };
  return { ok: true, value: str };
}

/** Each JSON type's reader and what it is called in a message, from the most specific: the order they are tried. */
const TYPE_READERS: Record<string, { expected: string; read: (g: Given) => Reading }> = {
  boolean: {
    expected: 'true or false',
    read: ({ v, text }) =>
      typeof v === 'boolean'
        ? { ok: true, value: v }
        : text !== undefined && /^(true|false)$/i.test(text)
          ? { ok: true, value: text.toLowerCase() === 'true' }
          : undefined,
  },
  integer: { expected: 'a whole number', read: (g) => readNumber(g, true) },
  number: { expected: 'a number', read: (g) => readNumber(g, false) },
  array: { expected: 'a list', read: readList },
  object: {
    expected: 'an object (JSON text)',
    read: ({ s, v, json, path }) => {
      const obj = isRecord(v) ? v : isRecord(json) ? json : undefined;
      if (!obj) return undefined;
      return { ok: true, value: s.properties ? coerceObject(s, obj, path) : obj };
    },
  },
  string: { expected: 'text', read: readText },
  null: {
    expected: 'null',
    read: ({ v, text }) =>
      v === null || (text !== undefined && text.toLowerCase() === 'null') ? { ok: true, value: null } : undefined,
  },
};

/** One value against one alternative (no anyOf), trying its types from the most specific. */
function convert(s: ToolArgSchema, v: unknown, path: string, textTaken: boolean): Result {
  if (s.const !== undefined)
    return sameChoice(s.const, v) ? { ok: true, value: s.const } : { ok: false, expected: JSON.stringify(s.const) };
  if (s.enum?.length) {
    const hit = s.enum.find((e) => sameChoice(e, v));
    return hit !== undefined
      ? { ok: true, value: hit }
      : { ok: false, expected: `one of ${s.enum.map((e) => String(e)).join(', ')}` };
  }
  const types = typesOf(s);
  if (!types.length) return { ok: true, value: v }; // any value
  const text = typeof v === 'string' ? v.trim() : undefined;
  const json = text !== undefined && /^[[{]/.test(text) ? parseJson(text) : undefined;
  const given: Given = { s, v, path, text, json, textTaken };
  const expected: string[] = [];
  let broken: string | undefined;
  for (const [type, reader] of Object.entries(TYPE_READERS)) {
    if (!types.includes(type)) continue;
    expected.push(reader.expected);
    const r = reader.read(given);
    if (r && 'ok' in r) return r;
    broken ??= r?.broken;
  }
  return { ok: false, expected: expected.join(' or '), ...(broken ? { broken } : {}) };
}

/** A value typed by its schema, or a ValidationError naming `path` and what the schema takes. */
export function coerceValue(schema: ToolArgSchema, v: unknown, path: string): unknown {
  const alts = alternatives(schema);
  const wanted: string[] = [];
  let broken: string | undefined;
  // Alternatives that keep text as text come last: `facility_id=123` is the number 123.
  const takesText = (a: ToolArgSchema) => typesOf(a).includes('string') && a.const === undefined && !a.enum;
  const ranked = [...alts].sort((a, b) => Number(takesText(a)) - Number(takesText(b)));
  const textTaken = alts.some(takesText);
  for (const alt of ranked) {
    const r = convert(alt, v, path, textTaken);
    if (r.ok) return r.value;
    wanted.push(r.expected);
    broken ??= r.broken;
  }
  if (broken) throw new ValidationError(path, broken);
  const choices = [...new Set(wanted)];
  const last = choices.pop();
  throw new ValidationError(
    path,
    `must be ${choices.length ? `${choices.join(', ')} or ${last}` : last}, got ${show(v)}`,
  );
}

function coerceObject(schema: ToolArgSchema, given: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Array<[string, unknown]> = [];
  const at = (k: string) => (prefix ? `${prefix}.${k}` : k);
  for (const [k, v] of Object.entries(given)) {
    if (v === undefined) continue;
    const prop = own(schema.properties, k);
    if (prop) out.push([k, coerceValue(prop, v, at(k))]);
    else if (schema.additionalProperties === false) {
      const names = Object.keys(schema.properties ?? {});
      throw new ValidationError(at(k), `is not an argument here${names.length ? `; one of ${names.join(', ')}` : ''}`);
    } else
      out.push([
        k,
        typeof schema.additionalProperties === 'object' ? coerceValue(schema.additionalProperties, v, at(k)) : v,
      ]);
  }
  const present = new Set(out.map(([k]) => k));
  for (const r of schema.required ?? []) if (!present.has(r)) throw new ValidationError(at(r), 'is required');
  // Built from entries: a member named `__proto__` stays data.
  return Object.fromEntries(out);
}

/**
 * Tool arguments as the tool's input schema types them: text becomes a number, a boolean, a
 * list (JSON, or comma-separated when the schema does not also take text), an object (JSON) or one
 * of a union's alternatives (`horizon=60` → 60 for `30 | 60 | 90`); numbers become text where text
 * is asked. Blank values are left out (the tool's default applies). A value no alternative takes,
 * a bound broken, a required argument missing, or (when the schema closes its properties) an
 * unknown argument is a ValidationError naming the argument. Arguments the schema does not
 * declare are sent as given; with no schema at all, text that reads as a number or true/false
 * is sent as one.
 */
export function coerceToolArguments(inputSchema: unknown, args: Record<string, unknown>): Record<string, unknown> {
  const schema: ToolArgSchema = inputSchema && typeof inputSchema === 'object' ? inputSchema : {};
  const given = Object.fromEntries(Object.entries(args).filter(([, v]) => !isBlank(v)));
  // No declared properties (a schema not at hand): numbers and booleans by their look.
  if (!schema.properties)
    return coerceObject({ additionalProperties: { type: ['boolean', 'number', 'string'] } }, given, '');
  return coerceObject(schema, given, '');
}

/** Argument names given that the schema does not declare (sent as given; hosts may warn). */
export function undeclaredToolArguments(inputSchema: unknown, args: Record<string, unknown>): string[] {
  const props = (inputSchema as ToolArgSchema | undefined)?.properties ?? {};
  return Object.keys(args).filter((k) => !Object.prototype.hasOwnProperty.call(props, k));
}

const STATIC_SCHEMAS = new Map<string, ToolArgSchema>();

/** Core's own input schema of a tool (JSON Schema), for when the server's is not at hand (offline, formula preview). */
export function knownToolInputSchema(name: string): ToolArgSchema | undefined {
  if (!(MCP_TOOL_NAMES as readonly string[]).includes(name)) return undefined;
  let s = STATIC_SCHEMAS.get(name);
  if (!s) {
    // As the MCP SDK lists it (what a caller may send; draft-07): undeclared arguments not refused.
    s = z.toJSONSchema(McpToolInputs[name as McpToolName], { io: 'input', target: 'draft-7' }) as ToolArgSchema;
    STATIC_SCHEMAS.set(name, s);
  }
  return s;
}
