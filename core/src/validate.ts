import type { z } from 'zod';
import { ValidationError } from './errors.js';
import { describeIssue } from './schemas/params.js';

/** Parses call arguments with a parameter schema; a bad one throws ValidationError naming it. */
export function parseParams<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) {
    const { param, message } = describeIssue(r.error);
    throw new ValidationError(param, message);
  }
  return r.data;
}
