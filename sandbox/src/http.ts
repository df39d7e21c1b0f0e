import type { Context } from 'hono';

/** 400 with a JSON `error` naming the parameter (spec §7 rule 1). */
export function badRequest(c: Context, param: string, message: string, envelope = false) {
  const error = `${param}: ${message}`;
  return c.json(envelope ? { ok: false, _entity: 'error', error, param } : { success: false, error, param }, 400);
}

