import type { Context } from 'hono';
import type { z } from 'zod';
import { describeIssue } from '@dchub/core';

/** 400 with a JSON `error` naming the parameter (spec §7 rule 1). */
export function badRequest(c: Context, param: string, message: string, envelope = false) {
  const error = `${param}: ${message}`;
  return c.json(envelope ? { ok: false, _entity: 'error', error, param } : { success: false, error, param }, 400);
}

/** Parses the query string with a parameter schema; returns the value or a ready 400. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S, envelope = false, map?: (q: Record<string, string>) => Record<string, unknown>):
  | { ok: true; value: z.output<S> }
  | { ok: false; response: Response } {
  const raw = c.req.query();
  const r = schema.safeParse(map ? map(raw) : raw);
  if (r.success) return { ok: true, value: r.data };
  const { param, message } = describeIssue(r.error);
  return { ok: false, response: badRequest(c, param, message, envelope) };
}
