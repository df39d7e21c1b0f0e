import {
  DchubError,
  QuotaSpentError,
  TOOL_ANSWER_META,
  ValidationError,
  serverAnswerOf,
  type ToolResult,
} from '@dchub/core';
import type { CacheWord } from './upstream.js';

/**
 * A tool call's outcome as the gateway's MCP answer: what the upstream tool answered (its text, its
 * structuredContent, isError), so that a caller's core McpToolClient reads it exactly as it would read the
 * service's, plus how the gateway obtained it — in `_meta` (the relay's answer facts, which core reads) and,
 * for a stale answer, one more text part that any MCP host shows.
 */

/** A tools/call result (the SDK's CallToolResult, loosely typed). */
export interface ToolAnswer {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** A JSON-RPC error to answer, thrown from a request handler (the SDK answers its code, message and data). */
export class RpcAnswerError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const cacheWordOf = (r: ToolResult): CacheWord => (r.stale ? 'stale' : r.fromCache ? 'hit' : 'miss');

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The upstream's answer as it came, and the gateway's word on it. */
export function toolAnswer(r: ToolResult): ToolAnswer {
  const stale = r.stale === true;
  // When stale, core's warning is the stale line (age and why); otherwise its warnings are allowance notes.
  const notes = stale ? [] : (r.warnings ?? []);
  const facts = {
    from_cache: r.fromCache,
    stale,
    age_ms: Math.max(0, Math.round(r.ageMs ?? 0)),
    ...(stale && r.reason ? { reason: r.reason } : {}),
    ...(notes.length ? { allowance: notes.join('; ') } : {}),
  };
  const content: ToolAnswer['content'] = r.text === '' ? [] : [{ type: 'text', text: r.text }];
  if (stale && r.warnings?.[0]) content.push({ type: 'text', text: `DC Hub team gateway: ${r.warnings[0]}` });
  return {
    content,
    ...(r.structured && isRecord(r.data) ? { structuredContent: r.data } : {}),
    ...(r.isError ? { isError: true } : {}),
    _meta: { [TOOL_ANSWER_META]: facts },
  };
}

/** An allowance spent (the token's share, the team's MCP allowance) as the service states its own daily cap. */
function dailyCap(tool: string, err: QuotaSpentError): ToolAnswer {
  const said = {
    error: 'daily_limit_reached',
    tool,
    message: err.message,
    ...(err.resetAt ? { resets_at: err.resetAt } : {}),
    limit: err.limit,
    _gateway: true,
  };
  return { content: [{ type: 'text', text: JSON.stringify(said) }], structuredContent: said, isError: true };
}

/**
 * A failed call as the gateway answers it: what the service said when it said something (a plan wall or a
 * daily cap as its tool result, invalid params as its JSON-RPC error), a spent allowance as the service's cap,
 * anything else as a JSON-RPC error a caller's core reads the same way (-32602 names the parameter, -32001 a
 * refused key).
 */
export function refusalAnswer(err: unknown, tool: string): { answer: ToolAnswer; word?: CacheWord } {
  const said = serverAnswerOf(err);
  if (said && 'result' in said) return { answer: toolAnswer(said.result), word: 'miss' };
  if (said) throw new RpcAnswerError(said.rpcError.code, said.rpcError.message, said.rpcError.data);
  if (err instanceof QuotaSpentError) return { answer: dailyCap(tool, err) };
  if (err instanceof ValidationError)
    throw new RpcAnswerError(-32602, err.message, { param: err.param, tool, _gateway: true });
  if (err instanceof DchubError && err.kind === 'auth')
    throw new RpcAnswerError(
      -32001,
      `the DC Hub service refused the team gateway's key (${err.message}); tell the gateway's admin`,
    );
  if (err instanceof DchubError)
    throw new RpcAnswerError(
      -32603,
      `the team gateway could not get an answer from the DC Hub service: ${err.message}`,
    );
  throw err;
}
