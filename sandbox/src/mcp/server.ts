import type { Context, Hono } from 'hono';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH, MCP_SERVER_NAME, MCP_SERVER_VERSION, McpToolInputs } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { readJsonBody } from '../body.js';
import type { SandboxEnv } from '../http.js';
import { callerId, requestKey } from '../policy/limits.js';
import type { Tier } from '../policy/tiers.js';
import { hexId } from '../rng.js';
import { badToolCall, callTool, toolText } from './calls.js';
import { TOOL_LIST } from './tools/index.js';

/** Sessions idle longer than this are evicted (sandbox clock). */
export const SESSION_IDLE_MS = 5 * 60_000;
/** Open sessions at most; an initialize beyond that is refused (429) until one closes or expires. */
export const MAX_SESSIONS = 256;
/** Largest JSON-RPC body accepted, refused while it streams in. */
export const MCP_MAX_BODY_BYTES = 1_000_000;

const INSTRUCTIONS =
  'DC Hub data center intelligence (sandbox, synthetic data). Send X-API-Key for full answers; ' +
  'keyless callers get 10 calls/day and 2 results per list. Data CC-BY-4.0: cite "DC Hub, dchub.cloud".';

type Transport = WebStandardStreamableHTTPServerTransport;
type AuthInfo = { token: string; clientId: string; scopes: string[]; extra: { tier: Tier; caller: string } };

/** One SDK server per session; tools/list comes from the SDK, tools/call from callTool (calls.ts). */
function makeServer(ctx: SandboxContext): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
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
    const r = await callTool(ctx, who.tier ?? 'anonymous', who.caller ?? 'ip:local', req.params);
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

/** The open sessions by Mcp-Session-Id, each with its transport and when it was last used (sandbox clock). */
class McpSessions {
  readonly #byId = new Map<string, { transport: Transport; lastMs: number }>();
  #counter = 0;

  constructor(private readonly ctx: SandboxContext) {}

  get size(): number {
    return this.#byId.size;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The session, marked used now; undefined when unknown (or evicted). */
  touch(id: string, now: number): Transport | undefined {
    const s = this.#byId.get(id);
    if (s) s.lastMs = now;
    return s?.transport;
  }

  /** Closes the sessions idle longer than SESSION_IDLE_MS. */
  evict(now: number): void {
    for (const [id, s] of this.#byId) {
      if (now - s.lastMs > SESSION_IDLE_MS) {
        this.#byId.delete(id);
        void s.transport.close();
      }
    }
  }

  /** A new session's transport, connected to its own server; listed once the SDK names it. */
  async open(now: number): Promise<Transport> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => this.#newId(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.#byId.set(id, { transport, lastMs: now });
      },
      onsessionclosed: (id) => {
        this.#byId.delete(id);
      },
    });
    await makeServer(this.ctx).connect(transport);
    return transport;
  }

  /** Closes a session; false when there is none by that id. */
  async close(id: string): Promise<boolean> {
    const s = this.#byId.get(id);
    if (!s) return false;
    this.#byId.delete(id);
    await s.transport.close();
    return true;
  }

  /** A version-4 UUID drawn from the seed, the session count and the clock. */
  #newId(): string {
    const h = hexId(32, this.ctx.seed, 'mcp-session', ++this.#counter, this.ctx.clock.nowMs());
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

const rpcReply = (c: Context<SandboxEnv>, status: 400 | 404 | 413 | 429, id: unknown, code: number, message: string) =>
  c.json({ jsonrpc: '2.0', error: { code, message }, id: id ?? null }, status);

/** The body's JSON-RPC message(s), or the answer refusing it: too large, not JSON, or a malformed tools/call. */
async function readRpcBody(c: Context<SandboxEnv>): Promise<{ body: unknown } | { refused: Response }> {
  const read = await readJsonBody(c.req.raw, MCP_MAX_BODY_BYTES);
  if (!read.ok) {
    return {
      refused:
        read.status === 413
          ? rpcReply(c, 413, null, -32600, `Request too large: the body must be at most ${MCP_MAX_BODY_BYTES} bytes`)
          : rpcReply(c, 400, null, -32700, `Parse error: the body must be JSON-RPC 2.0 (${read.message})`),
    };
  }
  for (const m of Array.isArray(read.json) ? read.json : [read.json]) {
    const bad = badToolCall(m);
    if (bad) return { refused: rpcReply(c, 400, (m as { id?: unknown }).id, -32602, bad) };
  }
  return { body: read.json };
}

/** Who calls, for the SDK's authInfo: the key, and the caller the MCP allowance counts. */
function authInfoOf(c: Context<SandboxEnv>, tier: Tier): AuthInfo {
  const caller = callerId(c, tier);
  return { token: requestKey(c) ?? '', clientId: caller, scopes: [], extra: { tier, caller } };
}

/** POST /mcp: a message of an open session, or an initialize that opens one. */
function postHandler(sessions: McpSessions, ctx: SandboxContext) {
  return async (c: Context<SandboxEnv>) => {
    const now = ctx.clock.nowMs();
    sessions.evict(now);
    const read = await readRpcBody(c);
    if ('refused' in read) return read.refused;
    const { body } = read;
    const authInfo = authInfoOf(c, c.get('tier'));
    const sessionId = c.req.header('mcp-session-id');
    const first = (Array.isArray(body) ? body[0] : body) as { id?: unknown } | undefined;
    if (sessionId) {
      const transport = sessions.touch(sessionId, now);
      if (!transport) return rpcReply(c, 404, first?.id, -32001, 'Session not found');
      return transport.handleRequest(c.req.raw, { parsedBody: body, authInfo });
    }
    if (!isInitializeRequest(body)) return rpcReply(c, 400, first?.id, -32000, 'No session. Send initialize first.');
    if (sessions.size >= MAX_SESSIONS) {
      c.header('Retry-After', String(Math.ceil(SESSION_IDLE_MS / 1000)));
      const message =
        `Too many open sessions (${MAX_SESSIONS}): ` +
        'close one with DELETE /mcp, or retry after idle sessions expire';
      return rpcReply(c, 429, first?.id, -32000, message);
    }
    const transport = await sessions.open(now);
    return transport.handleRequest(c.req.raw, { parsedBody: body, authInfo });
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
  const sessions = new McpSessions(ctx);

  app.post(MCP_PATH, postHandler(sessions, ctx));

  app.get(MCP_PATH, (c) => {
    const sessionId = c.req.header('mcp-session-id');
    if (!sessionId || !sessions.has(sessionId)) return c.json({ error: 'No session. POST /mcp with initialize.' }, 400);
    c.header('Allow', 'POST, DELETE, OPTIONS');
    return c.json({ error: 'Streamable HTTP subscription is not supported. Use POST /mcp.' }, 405);
  });

  app.delete(MCP_PATH, async (c) => {
    const sessionId = c.req.header('mcp-session-id');
    if (!sessionId || !(await sessions.close(sessionId))) return c.json({ error: 'Session not found' }, 404);
    return c.json({ ok: true, session_closed: sessionId });
  });
}
