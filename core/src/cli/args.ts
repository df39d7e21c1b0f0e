import { readPath } from '../table.js';

/** A usage mistake: exit code 2 with the help hint. */
export class UsageError extends Error {}

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
