import { scalarText, type McpToolName } from '@dchub/core';
import type { SandboxContext } from '../../context.js';
import { attribution } from '../../labels.js';
import type { Tier } from '../../policy/tiers.js';

/** What a tool sees: the sandbox data (through domain/), the caller's tier and the clock. */
export interface ToolEnv {
  ctx: SandboxContext;
  tier: Tier;
  nowMs: number;
}

export type ToolResult = Record<string, unknown>;

/** A tool-level failure: answered as `isError: true` with this JSON. */
export class ToolError extends Error {
  constructor(readonly payload: Record<string, unknown>) {
    super(scalarText(payload.error) ?? 'tool_error');
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

export const labels = attribution;

/** The first array member of an answer (its main list), by preference order. */
export function mainList(obj: Record<string, unknown>, prefer?: string): string | undefined {
  if (prefer && prefer !== 'auto') return Array.isArray(obj[prefer]) ? prefer : undefined;
  for (const k of [
    'results',
    'facilities',
    'articles',
    'news',
    'deals',
    'transactions',
    'projects',
    'pipeline',
    'matches',
    'markets',
    'leaderboard',
    'items',
    'data',
  ]) {
    if (Array.isArray(obj[k])) return k;
  }
  return Object.keys(obj).find((k) => Array.isArray(obj[k]) && (obj[k] as unknown[]).length > 0);
}

export const lc = (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : typeof s === 'number' ? String(s) : '');
export const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

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
