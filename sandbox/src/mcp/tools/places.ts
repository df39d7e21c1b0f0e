/** Places named in tool arguments: US states and metro markets. */
import { scalarText } from '@dchub/core';
import { US_STATES } from '../../data/geography.js';
import { METROS } from '../../data/metros.js';
import { slugify } from './common.js';

export const STATE_BY_CODE = new Map(US_STATES.map((s) => [s.code, s]));

export function stateArg(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v.trim()) return undefined;
  const t = v.trim().toUpperCase();
  if (STATE_BY_CODE.has(t)) return t;
  return US_STATES.find((s) => s.name.toUpperCase() === t)?.code;
}

/** A metro by slug or name (`northern-virginia`, `Northern Virginia`, `ashburn`). */
export function findMetro(v: unknown) {
  const s = slugify(scalarText(v) ?? '');
  if (!s) return undefined;
  return (
    METROS.find((m) => m.slug === s) ??
    METROS.find((m) => slugify(m.name) === s) ??
    METROS.find((m) => m.slug.startsWith(s) || s.startsWith(m.slug))
  );
}
