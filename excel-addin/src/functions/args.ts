import { ValidationError, type Cell } from '@dchub/core';

const blank = (v: unknown) => v === null || v === undefined || v === '';

/** A 2-D range with a header row → records (blank cells left out, numbers kept). */
export function rangeRecords(name: string, range: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(range) || !Array.isArray(range[0])) throw new ValidationError(name, 'must be a range with a header row');
  const [header, ...rows] = range as unknown[][];
  const cols = header.map((h) => String(h ?? '').trim());
  if (cols.some((c) => !c)) throw new ValidationError(name, 'every column needs a name in the header row');
  const out = rows
    .filter((r) => r.some((v) => !blank(v)))
    .map((r) => {
      const rec: Record<string, unknown> = {};
      cols.forEach((c, j) => {
        if (!blank(r[j])) rec[c] = r[j];
      });
      return rec;
    });
  if (!out.length) throw new ValidationError(name, 'has no data rows under its header');
  return out;
}

/** Key/value pairs from a two-column range or from "k=v;k=v" / "k:v,k:v" text. */
export function pairs(name: string, given: unknown, sep: RegExp): Array<[string, string | number]> {
  const v = rangeOrText(given);
  if (blank(v)) return [];
  if (Array.isArray(v)) {
    return (v as unknown[][])
      .filter((r) => Array.isArray(r) && !blank(r[0]))
      .map((r) => {
        if (r.length < 2) throw new ValidationError(name, 'must be a two-column range (name, value)');
        return [String(r[0]).trim(), r.length > 2 ? r.slice(1).map((x) => (blank(x) ? '' : String(x))).join(':') : blank(r[1]) ? '' : typeof r[1] === 'number' ? r[1] : String(r[1])];
      });
  }
  return String(v)
    .split(sep)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const m = /^([^:=]+)[:=](.*)$/.exec(item);
      if (!m) throw new ValidationError(name, `cannot read ${JSON.stringify(item)}; write name:value`);
      return [m[1].trim(), m[2].trim()];
    });
}

/** Objectives: field → signed weight. */
export function objectivesArg(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, w] of pairs('objectives', v, /[,;]/)) {
    const n = Number(w);
    if (!Number.isFinite(n) || n === 0) throw new ValidationError('objectives', `weight of ${k} must be a non-zero number (+ maximizes, - minimizes), got ${JSON.stringify(w)}`);
    out[k] = n;
  }
  if (!Object.keys(out).length) throw new ValidationError('objectives', 'give at least one field:weight (e.g. "overall_score:1,fiber_km:-1")');
  return out;
}

/** Constraints: field → {min?, max?}, from "field:min:max" items or a (field, min, max) range. */
export function constraintsArg(v: unknown): Record<string, { min?: number; max?: number }> | undefined {
  const list = pairs('constraints', v, /[,;]/);
  if (!list.length) return undefined;
  const out: Record<string, { min?: number; max?: number }> = {};
  for (const [k, spec] of list) {
    const [lo = '', hi = ''] = String(spec).split(':');
    const num = (s: string, which: string) => {
      if (s.trim() === '') return undefined;
      const n = Number(s);
      if (!Number.isFinite(n)) throw new ValidationError('constraints', `${which} of ${k} must be a number, got ${JSON.stringify(s)}`);
      return n;
    };
    const c = { min: num(lo, 'min'), max: num(hi, 'max') };
    if (c.min === undefined && c.max === undefined) throw new ValidationError('constraints', `${k} needs a min or a max (field:min:max)`);
    out[k] = Object.fromEntries(Object.entries(c).filter(([, x]) => x !== undefined));
  }
  return out;
}

/** A text argument that must be present. */
export function requiredText(name: string, v: unknown): string {
  if (blank(v)) throw new ValidationError(name, 'is required');
  if (typeof v !== 'string' && typeof v !== 'number') throw new ValidationError(name, 'must be text');
  return String(v).trim();
}

/**
 * A parameter declared as a range (`any[][]`) that also takes text: Excel passes a typed value as
 * a 1×1 range. Gives the text (or number) of a single cell, the rows otherwise.
 */
export function rangeOrText(v: unknown): unknown {
  if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && v[0].length === 1) return v[0][0];
  return v;
}

export const optional = <T>(v: T | null | undefined): T | undefined => (blank(v) ? undefined : (v as T));

export type Matrix = Cell[][];
