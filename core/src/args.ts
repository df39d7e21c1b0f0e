import { ValidationError } from './errors.js';
import { showValue as show } from './schemas/params.js';

/**
 * Argument forms the hosts share: what a user types in a terminal, a cell or a form, read once
 * here so that every host accepts the same forms and names the same argument in its errors.
 */

export const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The text of a scalar a caller gave (text as is, a number or yes/no written out); undefined for anything else. */
export const scalarText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** A name and what was given for it (text, a number, or the rest of a range row). */
export type NamedValue = [name: string, value: unknown];

/**
 * Name/value pairs from any of the forms a user writes them in:
 * - text items `name:value` or `name=value`, separated by `itemSeparator` (default `,` or `;`);
 * - rows, as a spreadsheet range gives them: `[name, value]`, or `[name, a, b]` (value `[a, b]`);
 *   rows whose first cell is blank are skipped;
 * - an object `{name: value}`, or a list of `{field, ...}` records (a form's editor rows).
 * Names are trimmed; a name given twice is an error naming `argName`.
 */
export function namedValues(input: unknown, argName: string, itemSeparator: RegExp = /[,;]/): NamedValue[] {
  const out: NamedValue[] = [];
  const seen = new Set<string>();
  const add = (name: unknown, value: unknown) => {
    const n = String(name).trim();
    if (!n) throw new ValidationError(argName, `every item needs a name, got ${show(value)} without one`);
    if (n.length > 200) throw new ValidationError(argName, `a name is at most 200 characters, got ${n.length}`);
    if (seen.has(n)) throw new ValidationError(argName, `${n} is given twice`);
    seen.add(n);
    out.push([n, value]);
  };
  if (isBlank(input)) return out;
  if (typeof input === 'string') {
    for (const item of input
      .split(itemSeparator)
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = /^([^:=]+)[:=](.*)$/s.exec(item);
      if (!m) throw new ValidationError(argName, `cannot read ${show(item)}; write name:value`);
      add(m[1], m[2].trim());
    }
    return out;
  }
  if (Array.isArray(input)) {
    for (const row of input) {
      if (Array.isArray(row)) {
        if (isBlank(row[0])) continue;
        if (row.length < 2) throw new ValidationError(argName, 'must be a range of two or more columns (name, value)');
        add(row[0], row.length > 2 ? row.slice(1) : row[1]);
      } else if (row && typeof row === 'object' && 'field' in row) {
        const { field, ...rest } = row as Record<string, unknown>;
        if (isBlank(field)) continue;
        const keys = Object.keys(rest);
        add(field, keys.length === 1 ? rest[keys[0]] : rest);
      } else throw new ValidationError(argName, `must be rows of (name, value), got ${show(row)}`);
    }
    return out;
  }
  if (typeof input === 'object') {
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) add(k, v);
    return out;
  }
  throw new ValidationError(argName, `must be name:value items, got ${show(input)}`);
}

/** A number from a cell or text (`+1`, ` -0.5 `), or undefined when it is not one. */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : undefined;
}

/**
 * How deeply a value nests objects and lists (a scalar is 0), counted without recursion so that a
 * hostile value cannot exhaust the stack; counting stops past `stopAt`.
 */
export function nestingDepth(value: unknown, stopAt = 1000): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > stopAt) return deepest;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}
