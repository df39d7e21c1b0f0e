import { McpToolInputs, safeParseParams, type McpToolName } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { gatedMarkers, isKeyless, PRICING_URL, SIGNUP_URL } from '../policy/gating.js';
import { dailyReset } from '../policy/limits.js';
import { MCP_DAILY_CALLS, atLeast, type Tier } from '../policy/tiers.js';
import { ToolError, mainList, replaceList, type ToolDef, type ToolEnv, type ToolResult } from './tools/common.js';
import { TOOL_BY_NAME } from './tools/index.js';

/**
 * How the sandbox answers a tools/call, step by step: the tool and its arguments (a JSON-RPC error when
 * either is wrong), the MCP daily allowance, the Pro wall, the tool itself, the preview below its tier,
 * and the keyless cap on the main list. Each step that refuses answers as the real service does.
 */

/** A JSON-RPC error the SDK answers in place of a result. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A tool result as the SDK sends it: the JSON as text, and as structuredContent when it is an object. */
export const toolText = (payload: unknown, isError = false) => ({
  content: [{ type: 'text', text: JSON.stringify(payload) }],
  ...(payload && typeof payload === 'object' && !Array.isArray(payload) ? { structuredContent: payload } : {}),
  ...(isError ? { isError: true } : {}),
});

type ToolAnswer = ReturnType<typeof toolText> | ReturnType<SandboxContext['presenters']['mcpWall']>;
export type CallAnswer = { rpcError: RpcError } | ToolAnswer;

/**
 * What is wrong with a tools/call's params, in one line, or undefined. Checked before the SDK sees
 * the call, whose own check answers -32603 with a multi-line schema dump.
 */
export function badToolCall(message: unknown): string | undefined {
  if (!message || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call')
    return undefined;
  const params = (message as { params?: unknown }).params;
  const p =
    params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : undefined;
  if (!p || typeof p.name !== 'string') return 'Invalid params: params.name must be the tool name (a string)';
  const args = p.arguments;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args)))
    return `Invalid params: params.arguments of ${p.name} must be an object`;
  return undefined;
}

/**
 * The tool named and its parsed arguments, or the invalid-params error (-32602): an unknown tool, or
 * arguments that break the tool's input schema (one line naming the parameter), before anything is
 * counted or walled.
 */
function resolveCall(
  params: Record<string, unknown>,
): { tool: ToolDef; args: Record<string, unknown> } | { rpcError: RpcError } {
  const name = params.name;
  const tool = typeof name === 'string' ? TOOL_BY_NAME.get(name as McpToolName) : undefined;
  if (!tool) return { rpcError: { code: -32602, message: `Unknown tool: ${String(name)}` } };
  const parsed = safeParseParams(McpToolInputs[tool.name], params.arguments ?? {});
  if (parsed.success) return { tool, args: parsed.data };
  return {
    rpcError: {
      code: -32602,
      message: `${parsed.param}: ${parsed.message}`,
      data: { param: parsed.param, tool: tool.name },
    },
  };
}

/** The MCP daily allowance (spec §8.1): a tool error, not an HTTP error, so agents can read it. */
function spendAllowance(ctx: SandboxContext, tool: ToolDef, tier: Tier, caller: string, now: number) {
  if (!ctx.enforceLimits) return undefined;
  const limit = MCP_DAILY_CALLS[tier];
  if (ctx.counters.take(now, `mcp:${caller}`, limit) >= 0) return undefined;
  const reset = dailyReset(now);
  const keyHint =
    tier === 'anonymous' ? ` Send X-API-Key (claim a free key instantly: POST ${SIGNUP_URL}) for 1,000 calls/day.` : '';
  return toolText(
    {
      error: 'daily_limit_reached',
      tool: tool.name,
      tier,
      limit: `${limit}/day`,
      message: `MCP daily allowance reached for the ${tier} tier (${limit} calls/day).${keyHint}`,
      retry_after: reset.seconds,
      resets_at: reset.iso,
      upgrade_url: PRICING_URL,
    },
    true,
  );
}

/** A walled tool called below its tier: the profile's Pro wall, with the key claim for keyless agents. */
function proWall(ctx: SandboxContext, tool: ToolDef, tier: Tier) {
  if (tool.requires?.mode !== 'wall' || atLeast(tier, tool.requires.tier)) return undefined;
  return ctx.presenters.mcpWall({
    error: 'pro_required',
    tool: tool.name,
    _gated: true,
    _wall: true,
    required_plan: tool.requires.tier,
    current_plan: tier,
    user_message: `${tool.name} is a Pro tool. The Pro plan opens it.`,
    show_to_user: true,
    upgrade_url: PRICING_URL,
    ...(tier === 'anonymous'
      ? {
          agent_claim: {
            url: SIGNUP_URL,
            method: 'POST',
            body: { client_name: '<your agent name>' },
            returns: 'api_key',
          },
        }
      : {}),
  });
}

/** The tool's answer, or its ToolError as an error result; anything else thrown is a bug and propagates. */
async function runTool(
  tool: ToolDef,
  args: Record<string, unknown>,
  env: ToolEnv,
): Promise<{ result: ToolResult } | { failed: ToolAnswer }> {
  try {
    return { result: await tool.run(args, env) };
  } catch (e) {
    if (e instanceof ToolError) return { failed: toolText({ tool: tool.name, ...e.payload }, true) };
    throw e;
  }
}

/** Below a preview tool's tier: its preview, with the gated markers. */
function previewBelowTier(tool: ToolDef, result: ToolResult, env: ToolEnv): ToolResult {
  if (tool.requires?.mode !== 'preview' || atLeast(env.tier, tool.requires.tier) || !tool.preview) return result;
  const p = tool.preview(result, env);
  const total = typeof p._total_available === 'number' ? p._total_available : 1;
  return { ...p, ...gatedMarkers(total, 0, 'IDENTIFIED') };
}

/** Keyless answers: the main list cut to the profile's preview rows, with how many were withheld. */
function capForAnonymous(
  ctx: SandboxContext,
  tool: string,
  result: ToolResult,
  listKey: string | undefined,
): { result: ToolResult; tail?: string } {
  const key = listKey ? mainList(result, listKey) : undefined;
  if (!key) return { result };
  const rows = result[key] as unknown[];
  const partial = ctx.presenters.mcpPartial(tool, key, rows.length);
  if (rows.length <= partial.rows) return { result };
  return {
    result: {
      ...replaceList(result, key, rows.slice(0, partial.rows)),
      ...(typeof result.count === 'number' ? { count: partial.rows } : {}),
      ...partial.extra,
      _results_field: key,
      _results_withheld: rows.length - partial.rows,
    },
    tail: partial.tail,
  };
}

/** The result as the caller's tier sees it: whole with a key, capped without one. */
function answerFor(ctx: SandboxContext, tool: ToolDef, tier: Tier, result: ToolResult): ToolAnswer {
  if (!isKeyless(tier)) return toolText(result);
  const capped = capForAnonymous(ctx, tool.name, result, tool.list);
  const answer = toolText(capped.result);
  // The real service appends a Markdown upsell tail to the text of a preview (the data stays in structuredContent).
  if (capped.tail) answer.content[0].text += capped.tail;
  return answer;
}

/** One tools/call of a caller at a tier: every step above, in order; the first that answers wins. */
export async function callTool(
  ctx: SandboxContext,
  tier: Tier,
  caller: string,
  params: Record<string, unknown>,
): Promise<CallAnswer> {
  const call = resolveCall(params);
  if ('rpcError' in call) return call;
  const { tool, args } = call;
  const now = ctx.clock.nowMs();
  const refused = spendAllowance(ctx, tool, tier, caller, now) ?? proWall(ctx, tool, tier);
  if (refused) return refused;
  const env: ToolEnv = { ctx, tier, nowMs: now };
  const ran = await runTool(tool, args, env);
  if ('failed' in ran) return ran.failed;
  return answerFor(ctx, tool, tier, previewBelowTier(tool, ran.result, env));
}
