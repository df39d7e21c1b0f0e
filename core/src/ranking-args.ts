import { isBlank, namedValues, numberOf } from './args.js';
import { showValue as show } from './schemas/params.js';
import { ValidationError } from './errors.js';
import type { ScoringMode } from './ranking.js';

/**
 * The ranking arguments as users write them (the CLI's flags, Excel's ranges and text, the panel's
 * editor rows), read once: every host accepts the same forms and reports the same errors, naming
 * the argument (`name`) as the host calls it.
 */

export type Objectives = Record<string, number>;
export type Constraints = Record<string, { min?: number; max?: number }>;

const OBJECTIVES_EXAMPLE = '"overall_score:1,fiber_km:-1"';

/**
 * Objectives `field → signed weight` (+ maximizes, − minimizes) from `"power:+1,fiber_km:-0.5"`
 * (`:` or `=`, items split by `,` or `;`), rows `[field, weight]` (a two-column range), records
 * `{field, weight}` (editor rows) or an object `{field: weight}`. At least one is required.
 */
export function parseObjectives(input: unknown, name = 'objectives'): Objectives {
  if (isBlank(input))
    throw new ValidationError(
      name,
      `is required: give field:weight items, e.g. ${OBJECTIVES_EXAMPLE} (+ maximizes, - minimizes)`,
    );
  const entries: Array<[string, number]> = [];
  // An object keyed by field (`{x: 0}`, the Python API's form) names the member, as a request body's path does.
  const keyed = input !== null && typeof input === 'object' && !Array.isArray(input);
  for (const [field, w] of namedValues(input, name)) {
    const n = numberOf(w);
    const got = isBlank(w) ? 'nothing' : show(w);
    if ((n === undefined || n === 0) && keyed)
      throw new ValidationError(
        `${name}.${field}`,
        `weight must be a non-zero number (+ maximizes, - minimizes), got ${got}`,
      );
    if (n === undefined || n === 0)
      throw new ValidationError(
        name,
        `weight of ${field} must be a non-zero number (+ maximizes, - minimizes), got ${got}`,
      );
    entries.push([field, n]);
  }
  if (!entries.length)
    throw new ValidationError(name, `is required: give field:weight items, e.g. ${OBJECTIVES_EXAMPLE}`);
  return Object.fromEntries(entries);
}

/** `min:max`, `min..max`, a `[min, max]` row, or `{min, max}`: the two bounds as given. */
function boundsOf(field: string, v: unknown, name: string): [unknown, unknown] {
  if (Array.isArray(v)) return [v[0], v[1]];
  if (v && typeof v === 'object') {
    const { min, max, ...rest } = v as Record<string, unknown>;
    const other = Object.keys(rest)[0];
    if (other !== undefined) throw new ValidationError(name, `${field}: unknown bound ${show(other)}; use min and max`);
    return [min, max];
  }
  if (typeof v === 'string') {
    const parts = v.includes('..') ? v.split('..') : v.split(':');
    if (parts.length > 2)
      throw new ValidationError(name, `${field}: cannot read ${show(v)}; write field:min:max (either may be blank)`);
    return [parts[0], parts[1]];
  }
  throw new ValidationError(name, `${field} needs a min or a max (field:min:max), got ${show(v)}`);
}

/** `power_mw>=50` and `fiber_km<=5` items, as `[field, {min}]` / `[field, {max}]`. */
function comparisonItems(text: string): string | Array<[string, unknown]> {
  const items = text
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!items.some((i) => /[<>]=/.test(i))) return text;
  return items.map((item): [string, unknown] => {
    const m = /^([^<>=:]+?)\s*(>=|<=)\s*(.+)$/.exec(item);
    if (!m) {
      const colon = /^([^:=]+)[:=](.*)$/.exec(item);
      return colon ? [colon[1].trim(), colon[2].trim()] : [item, undefined];
    }
    return [m[1].trim(), m[2] === '>=' ? { min: m[3].trim() } : { max: m[3].trim() }];
  });
}

/**
 * Constraints `field → {min?, max?}` (hard filters, fail-closed) from `"power_mw:50:,fiber_km::5"`
 * (either bound blank), `"fiber_km:0..5"`, `"power_mw>=50"`, rows `[field, min, max]` (a
 * three-column range), records `{field, min, max}` or an object `{field: {min, max}}`. Nothing given
 * is `undefined` (no constraints).
 */
export function parseConstraints(input: unknown, name = 'constraints'): Constraints | undefined {
  if (isBlank(input)) return undefined;
  const given = typeof input === 'string' ? comparisonItems(input) : input;
  const entries: Array<[string, { min?: number; max?: number }]> = [];
  for (const [field, v] of namedValues(given, name)) {
    const [lo, hi] = boundsOf(field, v, name);
    const bound = (b: unknown, which: 'min' | 'max') => {
      if (isBlank(b)) return undefined;
      const n = numberOf(b);
      if (n === undefined) throw new ValidationError(name, `${which} of ${field} must be a number, got ${show(b)}`);
      return n;
    };
    const min = bound(lo, 'min');
    const max = bound(hi, 'max');
    if (min === undefined && max === undefined)
      throw new ValidationError(name, `${field} needs a min or a max (field:min:max)`);
    if (min !== undefined && max !== undefined && min > max)
      throw new ValidationError(name, `${field}: min ${min} is above max ${max}`);
    entries.push([field, { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) }]);
  }
  return entries.length ? Object.fromEntries(entries) : undefined;
}

export const SCORING_MODES: readonly ScoringMode[] = ['relative', 'absolute', 'percentile'];

/** The scoring mode (blank: the service's default, relative). */
export function parseScoringMode(v: unknown, name = 'mode'): ScoringMode | undefined {
  if (isBlank(v)) return undefined;
  const s = String(v).trim().toLowerCase();
  if (!(SCORING_MODES as readonly string[]).includes(s))
    throw new ValidationError(name, `must be relative, absolute or percentile, got ${show(v)}`);
  return s as ScoringMode;
}
