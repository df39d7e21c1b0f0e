import { z } from 'zod';

/**
 * Request-parameter builders shared by the client (argument checks before a call is spent)
 * and the sandbox (query and body parsing). Typed on both sides: `z.input` is what a caller may
 * pass (a number or its text, a boolean or 'true'/'false', null or blank for "not given"), `z.output`
 * the parsed value. Each builder is a transform-first pipe — a total `read` step that never throws,
 * then a zod schema of the accepted form — so `z.toJSONSchema(…, { io: 'input' })` describes exactly
 * what is accepted (zod documents such a pipe by its second schema). Problems are reported in words
 * a spreadsheet user can act on; the zod issue path names the parameter.
 */

/** Most characters of a value quoted in an error message (the ellipsis of a longer one included). */
export const SHOWN_VALUE_MAX = 60;

/**
 * A value for an error message, the one rule of every argument check: text quoted, other scalars as
 * written, a list by its length, an object named, at most SHOWN_VALUE_MAX characters. Never throws.
 */
export function showValue(v: unknown): string {
  let s: string;
  if (typeof v === 'string') s = JSON.stringify(v);
  else if (Array.isArray(v)) s = `a list of ${v.length}`;
  else if (v !== null && (typeof v === 'object' || typeof v === 'function')) s = 'an object';
  else s = String(v);
  return s.length > SHOWN_VALUE_MAX ? `${s.slice(0, SHOWN_VALUE_MAX - 1)}…` : s;
}

/** "Not given": null or blank text (an empty spreadsheet cell, `?limit=`). */
const BLANK_TEXT = /^\s*$/;
const isBlank = (v: unknown): v is null | undefined | string =>
  v === undefined || v === null || (typeof v === 'string' && BLANK_TEXT.test(v));

/** The documented "not given" forms; `abort` keeps a failed blank check from masking the real problem. */
const blankForms = () => [z.null(), z.string().regex(BLANK_TEXT, { abort: true })] as const;

/**
 * A parameter: `read` normalizes what a caller may pass (type `In`) without throwing; `accepted` is
 * the schema of the documented form; blank forms (when `blankable`) read as undefined; anything else
 * fails with `refused(value)`.
 */
function param<In, S extends z.ZodType>(read: (v: In) => unknown, accepted: S, refused: (v: unknown) => string) {
  const error = (iss: { code?: string; input?: unknown }) =>
    iss.code === 'invalid_union' ? refused(iss.input) : undefined;
  return z.pipe(
    z.transform((v: In) => read(v)),
    z
      .union([accepted, ...blankForms()], { error })
      .transform((v): z.output<S> | undefined => (isBlank(v) ? undefined : (v as z.output<S>))),
  );
}

/** Text a caller may pass for a number; other values are left for the schema to refuse. */
const NUMBER_TEXT = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
const readNumber = (v: unknown): unknown => (typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : v);

/** Code points, as JSON Schema's `maxLength` counts them (not UTF-16 units). */
const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export interface NumberRule {
  min?: number;
  max?: number;
  /** exclusive lower bound */
  gt?: number;
  int?: boolean;
  description?: string;
}

/** What a caller may pass for a number parameter. */
export type NumberArg = number | string | null | undefined;
/** What a caller may pass for a yes/no parameter. */
export type BooleanArg = boolean | 0 | 1 | string | null | undefined;
/** What a caller may pass for a text parameter. */
export type TextArg = string | number | null | undefined;

const numberRefused = (rule: NumberRule) => (v: unknown) =>
  rule.int ? `must be a whole number, got ${showValue(v)}` : `must be a number, got ${showValue(v)}`;

/** Adds a description to the JSON Schema when there is one. */
const described = <S extends z.ZodType>(schema: S, description: string | undefined): S =>
  description ? schema.meta({ description }) : schema;

function numberSchema(rule: NumberRule, required = false) {
  let n = z.number({
    error: (iss) => (required && isBlank(iss.input) ? 'is required' : numberRefused(rule)(iss.input)),
  });
  if (rule.int) n = n.int({ error: (iss) => `must be a whole number, got ${showValue(iss.input)}` });
  if (rule.gt !== undefined)
    n = n.gt(rule.gt, { error: (iss) => `must be greater than ${rule.gt}, got ${showValue(iss.input)}` });
  if (rule.min !== undefined)
    n = n.min(rule.min, { error: (iss) => `must be at least ${rule.min}, got ${showValue(iss.input)}` });
  if (rule.max !== undefined)
    n = n.max(rule.max, { error: (iss) => `must be at most ${rule.max}, got ${showValue(iss.input)}` });
  return n;
}

/** An optional number (or its text); null or blank mean "not given". */
export const optionalNumber = (rule: NumberRule = {}) =>
  described(
    param((v: NumberArg) => readNumber(v), numberSchema(rule), numberRefused(rule)).optional(),
    rule.description,
  );

/** A number (or its text) that must be given. */
export const requiredNumber = (rule: NumberRule = {}) =>
  described(
    z.pipe(
      z.transform((v: number | string) => readNumber(v)),
      numberSchema(rule, true),
    ),
    rule.description,
  );

/** Accepted spellings of yes and no (any case, surrounding space ignored). */
export const TRUE_WORDS = ['true', '1', 'yes', 'y', 'on'] as const;
export const FALSE_WORDS = ['false', '0', 'no', 'n', 'off'] as const;
const BOOLEAN_TEXT = new RegExp(`^\\s*(?:${[...TRUE_WORDS, ...FALSE_WORDS].map(caseless).join('|')})\\s*$`);

/** A JSON Schema pattern matching `word` in any case (JSON Schema patterns have no `i` flag). */
export function caseless(word: string): string {
  // Only syntax characters are escaped: the pattern must also compile in Unicode mode, where `\-` is an error.
  return word
    .replace(/[.*+?^${}()|[\]\\/]/g, (c) => `\\${c}`)
    .replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
}

const readBoolean = (v: unknown): unknown => {
  if (v === 0 || v === 1) return v === 1;
  if (typeof v === 'string' && BOOLEAN_TEXT.test(v))
    return (TRUE_WORDS as readonly string[]).includes(v.trim().toLowerCase());
  return v;
};

/** Yes/no: a boolean, 0/1, or true/false, yes/no, y/n, on/off, 1/0 in any case; blank means `fallback`. */
export const booleanParam = (fallback: boolean, description?: string) => {
  const refused = (v: unknown) => `must be true or false, got ${showValue(v)}`;
  // The text forms are read as booleans first; the pattern documents them.
  const accepted = z.union([
    z.boolean(),
    z.literal([0, 1]),
    z.string().regex(BOOLEAN_TEXT, { error: (iss) => refused(iss.input) }),
  ]);
  return described(
    param((v: BooleanArg) => readBoolean(v), accepted, refused)
      .optional()
      .transform((b): boolean => (typeof b === 'boolean' ? b : b === undefined ? fallback : readBoolean(b) === true)),
    description && `${description} (default ${fallback})`,
  );
};

/**
 * Text of at most `maxLength` characters (surrounding space trimmed); a number is read as its text; blank means "not
 * given".
 */
export const optionalString = (
  opts: { maxLength?: number; pattern?: RegExp; description?: string; refused?: (v: unknown) => string } = {},
) => {
  let s = z.string({ error: (iss) => `must be text, got ${showValue(iss.input)}` });
  const refused = opts.refused ?? ((v: unknown) => `is not accepted: ${showValue(v)}`);
  if (opts.pattern) s = s.regex(opts.pattern, { error: (iss) => refused(iss.input) });
  const text =
    opts.maxLength === undefined
      ? s
      : s
          .refine((t) => codePoints(t) <= opts.maxLength!, { error: `must be at most ${opts.maxLength} characters` })
          .meta({ maxLength: opts.maxLength });
  const read = (v: TextArg) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v);
  // Free text also takes a number (read as its text) where any number's text fits (24 characters at most).
  const accepted = opts.pattern || (opts.maxLength ?? Infinity) < 24 ? text : z.union([text, z.number()]);
  return described(
    param(read, accepted, (v) => `must be text, got ${showValue(v)}`)
      .transform((t): string | undefined => (t === undefined ? undefined : String(t).trim()))
      .optional(),
    opts.description,
  );
};

/**
 * One of a fixed list of words (any case, surrounding space ignored). Unknown words are refused
 * with a message naming the accepted values; `aliases` maps other spellings; blank means `fallback`.
 */
export function choiceParam<const T extends string>(
  values: readonly T[],
  opts: { description?: string; aliases?: Record<string, T>; fallback?: T } = {},
) {
  const byKey = new Map<string, T>(values.map((v) => [v.toLowerCase(), v]));
  for (const [k, v] of Object.entries(opts.aliases ?? {})) byKey.set(k.toLowerCase(), v);
  const spellings = [...byKey.keys()];
  const refused = (v: unknown) => `must be one of ${values.join(', ')}, got ${showValue(v)}`;
  const accepted = z
    .string({ error: (iss) => refused(iss.input) })
    .regex(new RegExp(`^\\s*(?:${spellings.map(caseless).join('|')})\\s*$`), { error: (iss) => refused(iss.input) })
    .transform((s) => byKey.get(s.trim().toLowerCase()) as T);
  const words = `one of ${values.join(', ')} (any case)`;
  return described(
    param((v: string | null | undefined) => v, accepted, refused)
      .optional()
      .transform((v): T | undefined => v ?? opts.fallback),
    opts.description ? `${opts.description}; ${words}` : words,
  );
}

/** What a caller may pass for a list: its text (comma- or semicolon-separated) or an array of texts. */
export type ListArg = string | readonly string[] | null | undefined;

/**
 * A list parameter: text matching `pattern` (or an array of texts, joined with commas), split by
 * `split`; blank means "not given".
 */
export function listParam<T>(
  pattern: RegExp,
  split: (s: string) => T[],
  refused: (v: unknown) => string,
  description: string,
) {
  const accepted = z
    .string({ error: (iss) => refused(iss.input) })
    .regex(pattern, { error: (iss) => refused(iss.input) });
  const read = (v: ListArg): unknown => (Array.isArray(v) && v.every((t) => typeof t === 'string') ? v.join(',') : v);
  return described(
    param(read, accepted, refused)
      .transform((s): T[] | undefined => (s === undefined ? undefined : split(s)))
      .optional(),
    description,
  );
}

/** One of a few numbers (or its text); blank means "not given". */
export function numberChoiceParam<const T extends number>(
  values: readonly [T, ...T[]],
  opts: { description?: string } = {},
) {
  const refused = (v: unknown) => `must be one of ${values.join(', ')}, got ${showValue(v)}`;
  return described(
    param(
      (v: NumberArg) => readNumber(v),
      z.literal(values, { error: (iss) => refused(iss.input) }),
      refused,
    ).optional(),
    opts.description,
  );
}

/** A positive whole number of at most 12 digits (ids in paths); its text is accepted. */
export const idParam = (description: string) =>
  described(
    z.pipe(
      z.transform((v: number | string) => readNumber(v)),
      numberSchema({ int: true, min: 1, max: 999_999_999_999 }, true),
    ),
    description,
  );

/** A text path segment (a slug, a state, a region id). */
export const segment = (description: string) => z.string().min(1).meta({ description });

/**
 * A value read by `read` (which reports problems through `ctx` in its own words) and held to the
 * documented `shape`: read once as a check, then the shape, then read again for the value. The
 * input is typed and documented by `shape`; `read` adds what JSON Schema cannot say.
 */
export function readWithShape<S extends z.ZodType, Out>(
  shape: S,
  read: (v: unknown, ctx: z.core.$RefinementCtx) => Out,
) {
  // One pipe whose first step is the transform: zod then documents (and requires) the key by `shape`.
  return z.pipe(
    z.transform((v: z.input<S>, ctx): unknown => {
      read(v, ctx);
      return v;
    }),
    shape.transform((v, ctx) => read(v, ctx)),
  );
}

/** First issue of a failed parse as `{param, message}`. */
export function describeIssue(error: z.ZodError): { param: string; message: string } {
  const issue = error.issues[0];
  const param = issue?.path.map(String).join('.') || 'request';
  return { param, message: issue?.message ?? 'is invalid' };
}

/**
 * Parses without ever throwing: a schema that fails on a hostile value (an object whose own
 * `toString` is not a function, a getter that throws) is a refusal naming the input, not a crash.
 */
export function safeParseParams<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { success: true; data: z.output<S> } | { success: false; param: string; message: string } {
  try {
    const r = schema.safeParse(input);
    return r.success ? { success: true, data: r.data } : { success: false, ...describeIssue(r.error) };
  } catch (e) {
    return {
      success: false,
      param: 'request',
      message: `could not be read (${e instanceof Error ? e.message : 'invalid value'})`,
    };
  }
}
