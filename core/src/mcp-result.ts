import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ResponseCache, StoredAnswer } from './cache/responses.js';
import type { PreviewInfo } from './preview.js';
import { fieldTable, recordsTable, type Table } from './table.js';

/** An MCP tool's answer as core reads it, what the server said when core made an error of it, and its table. */

export interface ToolResult {
  tool: string;
  /** The tool's answer: structuredContent, or the JSON in its text, or the text itself. */
  data: unknown;
  isError: boolean;
  text: string;
  fromCache: boolean;
  /** Served from the cache because the service could not be asked (its age and why in `warnings`). */
  stale?: boolean;
  /** The server cut a list for this caller ("3 of 10"): not the whole answer. */
  partial: boolean;
  /** What a partial answer withholds and how to open it (`previewSentence` words it). */
  previewInfo?: PreviewInfo;
  /**
   * What to tell the user about this call, one line each: an assumed daily MCP allowance exceeded
   * (the call still went out). Hosts show them with the answer; never cached with it.
   */
  warnings?: string[];
  /** How old the answer is, when it was served from a cache (this client's, or a gateway's). */
  ageMs?: number;
  /** Why a stale answer was served (the service could not be asked). */
  reason?: string;
  /** `data` is the server's structuredContent, not read from its text (a gateway passes the answer on as it came). */
  structured?: boolean;
}

/**
 * Where a gateway says, in a tool result's `_meta`, how it obtained the answer: the relay's answer facts
 * (cache/relayed.ts: from_cache, stale, age_ms, reason, allowance). McpToolClient shows them as its own.
 */
export const TOOL_ANSWER_META = 'dchub.cloud/answer';

/** What the server itself answered when core made an error of it: its tool result, or its JSON-RPC error. */
export type ServerToolAnswer = { result: ToolResult } | { rpcError: { code: number; message: string; data?: unknown } };

const serverAnswers = new WeakMap<object, ServerToolAnswer>();

/**
 * What the server answered, for an error callTool threw from it (a plan wall, a daily cap, invalid params): a
 * gateway passes that on as the service said it, and its callers' core reads the same error again.
 */
export function serverAnswerOf(err: unknown): ServerToolAnswer | undefined {
  return err !== null && typeof err === 'object' ? serverAnswers.get(err) : undefined;
}

export function withServerAnswer<E extends object>(err: E, answer: ServerToolAnswer): E {
  serverAnswers.set(err, answer);
  return err;
}

/** `err`, remembered with the JSON-RPC error of `cause` when the server answered one. */
export function saidByServer<E extends object>(err: E, cause: unknown): E {
  if (!(cause instanceof McpError)) return err;
  const message = cause.message.replace(/^MCP error -?\d+:\s*/, '');
  return withServerAnswer(err, {
    rpcError: { code: cause.code, message, ...(cause.data !== undefined ? { data: cause.data } : {}) },
  });
}

/** A tool answer kept in the store (written by this or another process), read back. */
export async function loadToolAnswer(
  cache: ResponseCache,
  key: string,
): Promise<{ answer: StoredAnswer; value: unknown } | undefined> {
  const answer = await cache.load(key);
  if (!answer) return undefined;
  try {
    const value = JSON.parse(answer.text) as ToolResult;
    if (!value || typeof value !== 'object' || typeof value.tool !== 'string') return undefined;
    cache.remember(key, answer, value);
    return { answer, value };
  } catch {
    return undefined;
  }
}

/** A tool answer as a table: its first list of records, else its scalar members as field/value. */
export function toolTable(r: ToolResult): Table | undefined {
  const d = r.data;
  if (Array.isArray(d) && d.every((x) => x && typeof x === 'object'))
    return recordsTable(d as Record<string, unknown>[]);
  if (!d || typeof d !== 'object') return undefined;
  for (const v of Object.values(d as Record<string, unknown>)) {
    if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x)))
      return recordsTable(v as Record<string, unknown>[]);
  }
  return fieldTable(d);
}
