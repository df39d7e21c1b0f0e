import type { Context, Hono } from 'hono';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  MCP_PATH,
  MCP_SERVER_NAME,
  MCP_SERVER_VERSION,
  McpToolInputs,
  safeParseParams,
  type McpToolName,
} from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { readJsonBody } from '../body.js';
import type { SandboxEnv } from '../http.js';
import { gatedMarkers, isKeyless, PRICING_URL, SIGNUP_URL } from '../policy/gating.js';
import { dailyReset } from '../policy/limits.js';
import { MCP_DAILY_CALLS, atLeast, type Tier } from '../policy/tiers.js';
import { hexId } from '../rng.js';
import { ToolError, mainList, replaceList, type ToolEnv, type ToolResult } from './tools/common.js';
import { TOOL_BY_NAME, TOOL_LIST } from './tools/index.js';

/** Sessions idle longer than this are evicted (sandbox clock). */
export const SESSION_IDLE_MS = 5 * 60_000;
/** Open sessions at most; an initialize beyond that is refused (429) until one closes or expires. */
export const MAX_SESSIONS = 256;
/** Largest JSON-RPC body accepted, refused while it streams in. */
export const MCP_MAX_BODY_BYTES = 1_000_000;

/**
 * What is wrong with a tools/call's params, in one line, or undefined. Checked before the SDK sees
 * the call, whose own check answers -32603 with a multi-line schema dump.
 */
function badToolCall(message: unknown): string | undefined {
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

const toolText = (payload: unknown, isError = false) => ({
  content: [{ type: 'text', text: JSON.stringify(payload) }],
  ...(payload && typeof payload === 'object' && !Array.isArray(payload) ? { structuredContent: payload } : {}),
  ...(isError ? { isError: true } : {}),
});

/** The key the caller sent (X-API-Key or a bearer token). */
const callerKey = (c: Context) =>
  (c.req.header('x-api-key') ?? /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1])?.trim();

function mcpCaller(c: Context<SandboxEnv>, tier: Tier): string {
  if (tier !== 'anonymous') return `key:${callerKey(c)}`;
  const fwd = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return `ip:${fwd || env?.incoming?.socket?.remoteAddress || 'local'}`;
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

/**
 * MCP server at /mcp (spec §4.6): streamable HTTP (JSON responses; no server-initiated stream),
 * stateful sessions via Mcp-Session-Id, server "DC Hub Intelligence" 2.1.11, the 29 tools.
 * Tier comes from the HTTP request's X-API-Key/Bearer (unknown keys are refused with 401 by the
 * app-wide auth middleware). Tools read the same data as REST through the domain functions
 * (domain/), never through a route, so they never spend the caller's REST allowance (the MCP
 * allowance applies instead).
 */
export function registerMcp(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  let sessionCounter = 0;

  const newSessionId = () => {
    const h = hexId(32, ctx.seed, 'mcp-session', ++sessionCounter, ctx.clock.nowMs());
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };

  async function callTool(tier: Tier, caller: string, params: Record<string, unknown>) {
    const name = params.name;
    const tool = typeof name === 'string' ? TOOL_BY_NAME.get(name as McpToolName) : undefined;
    if (!tool) return { rpcError: { code: -32602, message: `Unknown tool: ${String(name)}` } };
    // Arguments that break the tool's input schema are invalid params (-32602), one line naming the
    // parameter, before anything is counted or walled.
    const parsed = safeParseParams(McpToolInputs[tool.name], params.arguments ?? {});
    if (!parsed.success) {
      return {
        rpcError: {
          code: -32602,
          message: `${parsed.param}: ${parsed.message}`,
          data: { param: parsed.param, tool: tool.name },
        },
      };
    }
    const now = ctx.clock.nowMs();

    // The MCP daily allowance (spec §8.1): a tool error, not an HTTP error, so agents can read it.
    if (ctx.enforceLimits) {
      const limit = MCP_DAILY_CALLS[tier];
      const left = ctx.counters.take(now, `mcp:${caller}`, limit);
      if (left < 0) {
        const reset = dailyReset(now);
        return toolText(
          {
            error: 'daily_limit_reached',
            tool: tool.name,
            tier,
            limit: `${limit}/day`,
            message: `MCP daily allowance reached for the ${tier} tier (${limit} calls/day).${tier === 'anonymous' ? ` Send X-API-Key (claim a free key instantly: POST ${SIGNUP_URL}) for 1,000 calls/day.` : ''}`,
            retry_after: reset.seconds,
            resets_at: reset.iso,
            upgrade_url: PRICING_URL,
          },
          true,
        );
      }
    }

    if (tool.requires?.mode === 'wall' && !atLeast(tier, tool.requires.tier)) {
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

    const env: ToolEnv = { ctx, tier, nowMs: now };
    let result: ToolResult;
    try {
      result = await tool.run(parsed.data, env);
    } catch (e) {
      if (e instanceof ToolError) return toolText({ tool: tool.name, ...e.payload }, true);
      throw e;
    }
    if (tool.requires?.mode === 'preview' && !atLeast(tier, tool.requires.tier) && tool.preview) {
      const p = tool.preview(result, env);
      const total = typeof p._total_available === 'number' ? p._total_available : 1;
      result = { ...p, ...gatedMarkers(total, 0, 'IDENTIFIED') };
    }
    if (!isKeyless(tier)) return toolText(result);
    const capped = capForAnonymous(ctx, tool.name, result, tool.list);
    const answer = toolText(capped.result);
    // The real service appends a Markdown upsell tail to the text of a preview (the data stays in structuredContent).
    if (capped.tail) answer.content[0].text += capped.tail;
    return answer;
  }

  /** One SDK server per session; tools/list comes from the SDK, tools/call from callTool above. */
  function makeServer(): McpServer {
    const server = new McpServer(
      { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
      {
        capabilities: { tools: { listChanged: false } },
        instructions:
          'DC Hub data center intelligence (sandbox, synthetic data). Send X-API-Key for full answers; keyless callers get 10 calls/day and 2 results per list. Data CC-BY-4.0: cite "DC Hub, dchub.cloud".',
      },
    );
    for (const t of TOOL_LIST) {
      server.registerTool(
        t.name,
        {
          description: t.description,
          inputSchema: McpToolInputs[t.name],
          annotations: { readOnlyHint: true, openWorldHint: false },
        },
        () => toolText({ error: 'unreachable' }, true) as never,
      );
    }
    // Our own call handler: arguments (-32602), allowance, Pro wall, previews, keyless cap.
    server.server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      const who = (extra.authInfo?.extra ?? {}) as { tier?: Tier; caller?: string };
      const r = await callTool(who.tier ?? 'anonymous', who.caller ?? 'ip:local', req.params);
      // The SDK answers a thrown error's code, message and data as the JSON-RPC error (McpError would prefix the
      // message).
      if ('rpcError' in r && r.rpcError)
        throw Object.assign(new Error(r.rpcError.message), {
          code: r.rpcError.code,
          data: 'data' in r.rpcError ? r.rpcError.data : undefined,
        });
      return r;
    });
    return server;
  }

  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; lastMs: number }>();
  const evict = (now: number) => {
    for (const [id, s] of sessions) {
      if (now - s.lastMs > SESSION_IDLE_MS) {
        sessions.delete(id);
        void s.transport.close();
      }
    }
  };
  const rpcReply = (
    c: Context<SandboxEnv>,
    status: 400 | 404 | 413 | 429,
    id: unknown,
    code: number,
    message: string,
  ) => c.json({ jsonrpc: '2.0', error: { code, message }, id: id ?? null }, status);

  app.post(MCP_PATH, async (c) => {
    const tier = c.get('tier');
    const now = ctx.clock.nowMs();
    evict(now);
    const read = await readJsonBody(c.req.raw, MCP_MAX_BODY_BYTES);
    if (!read.ok) {
      return read.status === 413
        ? rpcReply(c, 413, null, -32600, `Request too large: the body must be at most ${MCP_MAX_BODY_BYTES} bytes`)
        : rpcReply(c, 400, null, -32700, `Parse error: the body must be JSON-RPC 2.0 (${read.message})`);
    }
    const body = read.json;
    const messages = Array.isArray(body) ? body : [body];
    for (const m of messages) {
      const bad = badToolCall(m);
      if (bad)
        return c.json(
          { jsonrpc: '2.0', error: { code: -32602, message: bad }, id: (m as { id?: unknown }).id ?? null },
          400,
        );
    }
    const authInfo = {
      token: callerKey(c) ?? '',
      clientId: mcpCaller(c, tier),
      scopes: [],
      extra: { tier, caller: mcpCaller(c, tier) },
    };
    const sessionId = c.req.header('mcp-session-id');
    const first = (Array.isArray(body) ? body[0] : body) as { id?: unknown } | undefined;
    if (sessionId) {
      const s = sessions.get(sessionId);
      if (!s) return rpcReply(c, 404, first?.id, -32001, 'Session not found');
      s.lastMs = now;
      return s.transport.handleRequest(c.req.raw, { parsedBody: body, authInfo });
    }
    if (!isInitializeRequest(body)) return rpcReply(c, 400, first?.id, -32000, 'No session. Send initialize first.');
    if (sessions.size >= MAX_SESSIONS) {
      c.header('Retry-After', String(Math.ceil(SESSION_IDLE_MS / 1000)));
      return rpcReply(
        c,
        429,
        first?.id,
        -32000,
        `Too many open sessions (${MAX_SESSIONS}): close one with DELETE /mcp, or retry after idle sessions expire`,
      );
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: newSessionId,
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, lastMs: now });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    await makeServer().connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody: body, authInfo });
  });

  app.get(MCP_PATH, (c) => {
    const sessionId = c.req.header('mcp-session-id');
    if (!sessionId || !sessions.has(sessionId)) return c.json({ error: 'No session. POST /mcp with initialize.' }, 400);
    c.header('Allow', 'POST, DELETE, OPTIONS');
    return c.json({ error: 'Streamable HTTP subscription is not supported. Use POST /mcp.' }, 405);
  });

  app.delete(MCP_PATH, async (c) => {
    const sessionId = c.req.header('mcp-session-id');
    const s = sessionId ? sessions.get(sessionId) : undefined;
    if (!sessionId || !s) return c.json({ error: 'Session not found' }, 404);
    sessions.delete(sessionId);
    await s.transport.close();
    return c.json({ ok: true, session_closed: sessionId });
  });
}
