import type { z } from 'zod';
import { ValidationError } from './errors.js';
import { safeParseParams } from './schemas/params.js';

/** Parses call arguments with a parameter schema; a bad one throws ValidationError naming it (never a TypeError). */
export function parseParams<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = safeParseParams(schema, input);
  if (!r.success) throw new ValidationError(r.param, r.message);
  return r.data;
}
