import type { McpToolName } from '@dchub/core';
import type { SandboxContext, Tier } from '../../context.js';
import { CITATION, CITE, SOURCE, SYNTHETIC_NOTICE } from '../../labels.js';

/** What a tool sees: the sandbox data, the caller's tier and an in-process REST reader. */
export interface ToolEnv {
  ctx: SandboxContext;
  tier: Tier;
  nowMs: number;
  /** Same-sandbox REST call (full data, not counted against the caller's REST allowance). */
  rest: (path: string, init?: RequestInit) => Promise<{ status: number; body: unknown }>;
}

export type ToolResult = Record<string, unknown>;

/** A tool-level failure: answered as `isError: true` with this JSON. */
export class ToolError extends Error {
  constructor(readonly payload: Record<string, unknown>) {
    super(String(payload.error ?? 'tool_error'));
  }
}

export interface ToolDef {
  name: McpToolName;
  description: string;
  /** Lowest tier for the full answer; below it: a hard wall (`wall`) or a preview (`preview`). */
  requires?: { tier: Tier; mode: 'wall' | 'preview' };
  /** The answer's main list (capped to 2 rows for keyless callers); `auto` = first array member. */
  list?: string;
  run: (args: Record<string, unknown>, env: ToolEnv) => Promise<ToolResult> | ToolResult;
  /** Preview below `requires.tier` (gated tools). */
  preview?: (full: ToolResult, env: ToolEnv) => ToolResult;
}

export const labels = () => ({ _source: SOURCE, _cite: CITE, citation: CITATION, note: SYNTHETIC_NOTICE });

/** Reads an in-process REST answer; a missing endpoint or an error becomes a tool error. */
export async function restJson(env: ToolEnv, path: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const { status, body } = await env.rest(path, init);
  if (status === 200 && body && typeof body === 'object') return body as Record<string, unknown>;
  const b = (body && typeof body === 'object' ? body : { error: String(body) }) as Record<string, unknown>;
  if (status === 404 && typeof b.error === 'string' && b.error.startsWith('not_found: no endpoint')) {
    throw new ToolError({ error: 'upstream_unavailable', message: `The REST endpoint behind this tool (${path.split('?')[0]}) is not available in this sandbox build.` });
  }
  throw new ToolError({ ...b, error: typeof b.error === 'string' ? b.error : `upstream_status_${status}`, upstream_status: status });
}

/** The first array member of an answer (its main list), by preference order. */
export function mainList(obj: Record<string, unknown>, prefer?: string): string | undefined {
  if (prefer && prefer !== 'auto') return Array.isArray(obj[prefer]) ? prefer : undefined;
  for (const k of ['results', 'facilities', 'articles', 'news', 'deals', 'transactions', 'projects', 'pipeline', 'matches', 'markets', 'leaderboard', 'items', 'data']) {
    if (Array.isArray(obj[k])) return k;
  }
  return Object.keys(obj).find((k) => Array.isArray(obj[k]) && (obj[k] as unknown[]).length > 0);
}

export const lc = (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : typeof s === 'number' ? String(s) : '');
export const slugify = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/**
 * The answer with its main list replaced by `rows`; other members that repeat the same list
 * (REST answers often carry it twice, e.g. `transactions` and `data`) are replaced too.
 */
export function replaceList(obj: Record<string, unknown>, key: string, rows: unknown[]): Record<string, unknown> {
  const original = obj[key] as unknown[];
  const sig = JSON.stringify(original);
  const out: Record<string, unknown> = { ...obj };
  for (const [k, v] of Object.entries(obj)) {
    if (k === key || (Array.isArray(v) && v.length === original.length && JSON.stringify(v) === sig)) out[k] = rows;
  }
  return out;
}
