import { ValidationError } from '../errors.js';
import { GRID_REGION_IDS } from '../schemas/energy.js';

/**
 * Path segments from what a caller gives, checked before a call is spent (errors name the argument)
 * and URI-encoded for `endpointPath`.
 */

/** A market slug or name: text or a number, trimmed, at most 120 characters. */
export const slugArg = (name: string, v: unknown): string => {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  if (!s) throw new ValidationError(name, 'is required');
  if (s.length > 120) throw new ValidationError(name, 'must be at most 120 characters');
  return encodeURIComponent(s);
};

/** A text segment (a state code or name), trimmed, at most `max` characters. */
export const textArg = (name: string, v: unknown, max = 60): string => {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) throw new ValidationError(name, 'is required');
  if (s.length > max) throw new ValidationError(name, `must be at most ${max} characters`);
  return encodeURIComponent(s);
};

/** A positive whole number given as a number or its text, else ValidationError naming `name`. */
export const positiveIdArg = (name: string, v: unknown): number => {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^\d{1,12}$/.test(s) || Number(s) < 1)
    throw new ValidationError(
      name,
      `must be a positive whole number, got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`,
    );
  return Number(s);
};

/** A grid region id (`pjm`, `miso-spp`), any case. */
export const regionArg = (name: string, v: unknown): string => {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(s)) {
    throw new ValidationError(
      name,
      `must be a region id such as ${GRID_REGION_IDS.join(', ')}, got ${JSON.stringify(v)}`,
    );
  }
  return encodeURIComponent(s);
};
