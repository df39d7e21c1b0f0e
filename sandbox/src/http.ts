import { scalarText } from '@dchub/core';
import type { Context } from 'hono';
import type { Tier } from './policy/tiers.js';

/** What every request carries through the middleware chain: the caller's tier. */
export type SandboxEnv = { Variables: { tier: Tier } };

/** 400 with a JSON `error` naming the parameter (spec §7 rule 1). */
export function badRequest(c: Context, param: string, message: string, envelope = false) {
  const error = `${param}: ${message}`;
  return c.json(envelope ? { ok: false, _entity: 'error', error, param } : { success: false, error, param }, 400);
}

/** One CSV cell (RFC 4180 quoting); null and undefined are empty. */
export const csvField = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = scalarText(v) ?? JSON.stringify(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** Answers with a presenter's choice: its status, headers and body. */
export function show(c: Context, shown: { status: number; body: unknown; headers?: Record<string, string> }): Response {
  for (const [k, v] of Object.entries(shown.headers ?? {})) c.header(k, v);
  return c.json(shown.body as object, shown.status as 400);
}
