import type { ScoringMode } from '../ranking.js';
import { readPath } from '../table.js';

/** A usage mistake: exit code 2 with the help hint. */
export class UsageError extends Error {}

/** "field:weight,..." → objectives. */
export function weights(spec: string | undefined): Record<string, number> {
  if (!spec) throw new UsageError('--objectives is required, e.g. --objectives overall_score:1,fiber_km:-1');
  const out: Record<string, number> = {};
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [k, w] = item.split(':');
    const n = Number(w);
    if (!k || !Number.isFinite(n) || n === 0) throw new UsageError(`--objectives: ${JSON.stringify(item)} is not field:weight with a non-zero weight`);
    out[k] = n;
  }
  return out;
}

/** "field:min:max,..." → constraints. */
export function bounds(spec: string | undefined): Record<string, { min?: number; max?: number }> | undefined {
  if (!spec) return undefined;
  const out: Record<string, { min?: number; max?: number }> = {};
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [k, lo = '', hi = ''] = item.split(':');
    const c: { min?: number; max?: number } = {};
    if (lo !== '') c.min = num(`--constraints ${k} min`, lo);
    if (hi !== '') c.max = num(`--constraints ${k} max`, hi);
    if (!k || (c.min === undefined && c.max === undefined)) throw new UsageError(`--constraints: ${JSON.stringify(item)} is not field:min:max`);
    out[k] = c;
  }
  return out;
}

export function mode(v: string | undefined): ScoringMode | undefined {
  if (v === undefined) return undefined;
  if (v !== 'relative' && v !== 'absolute' && v !== 'percentile') throw new UsageError('--mode must be relative, absolute or percentile');
  return v;
}

/** The asked members of an answer, by path (a field the answer lacks is a usage error). */
export function pickFields(data: unknown, fields: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of fields.split(',').map((s) => s.trim()).filter(Boolean)) {
    const v = readPath(data, path);
    if (v === undefined) throw new UsageError(`--field: no member ${JSON.stringify(path)} in this answer`);
    out[path] = v;
  }
  return out;
}

export const num = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
};

/** Negative numbers (`-77.49`) are arguments, not flags: shield them from the option parser. */
const SHIELD = '\u0000';
export const shield = (argv: string[]) => argv.map((a) => (/^-\d/.test(a) ? SHIELD + a : a));
export const unshield = <T>(v: T): T => (typeof v === 'string' ? (v.replace(SHIELD, '') as T) : v);
