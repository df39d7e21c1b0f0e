import type { Context, Hono } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Authenticated } from '../auth.js';
import type { GatewayEnv } from '../context.js';
import type { Gateway } from '../gateway.js';
import { requestServer } from '../mcp/server.js';
import type { CacheWord } from '../mcp/upstream.js';

/**
 * `/mcp`: the DC Hub MCP server for the gateway's callers (streamable HTTP, the official SDK), behind the
 * same authentication as REST (app.ts).
 *
 * Stateless by design: no Mcp-Session-Id, a new SDK server and transport for every POST, GET and DELETE
 * answered 405 (the SDK's stateless example). A client's next request may reach any replica, and an
 * in-process session map would tie it to one (SDK issue #330: sessionful transports need sticky sessions,
 * and a load balancer cannot route by a session id that the initialize request does not carry yet). Nothing
 * here needs a session: the caller is authenticated on every request, the tool list and the answers live in
 * Redis, and the upstream session is the replica's own. Keeping sessions in Redis instead would add an event
 * store and cross-replica routing for no gain: the gateway never starts a server-to-client stream.
 */

/** The worst of a request's words: one stale answer makes the HTTP answer stale, one miss a miss. */
function worstWord(words: CacheWord[]): CacheWord | undefined {
  for (const w of ['stale', 'miss', 'hit'] as const) if (words.includes(w)) return w;
  return undefined;
}

/** Every form the secret takes in a JSON text, replaced (the answer never carries the organisation's key). */
function withoutSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  for (const form of [secret, JSON.stringify(secret).slice(1, -1)])
    if (text.includes(form)) text = text.split(form).join('[redacted]');
  return text;
}

/** What is left of the caller's share (MCP calls count in it), read again only after an upstream call. */
async function shareHeaders(gateway: Gateway, auth: Authenticated, spent: boolean): Promise<Record<string, string>> {
  const share = gateway.team().shareLedger(auth.caller);
  if (!share) return {};
  try {
    const s = spent ? await share.snapshot() : share.snapshotOf(auth.states.share);
    return {
      'X-DCHub-Share-Limit': String(s.limit),
      'X-DCHub-Share-Remaining': String(s.remaining),
      'X-DCHub-Resets-At': s.resetsAt,
    };
  } catch {
    return {}; // Redis went away mid-call: the answer goes without them
  }
}

async function answerMcp(c: Context<GatewayEnv>): Promise<Response> {
  const { gateway, auth } = c.var;
  const team = gateway.team();
  const { server, words, spent } = requestServer(team, auth.caller);
  // No session id: every request stands alone (see above). JSON answers: one HTTP answer per POST, whose
  // headers can say how its tool answers were obtained.
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const res = await transport.handleRequest(c.req.raw);
    const headers = new Headers(res.headers);
    const word = worstWord(words);
    c.set('cacheStatus', word ?? (res.status >= 400 ? 'error' : 'none'));
    if (word) headers.set('X-DCHub-Cache', word);
    for (const [k, v] of Object.entries(await shareHeaders(gateway, auth, spent()))) headers.set(k, v);
    const body = res.body ? withoutSecret(await res.text(), team.secret) : null;
    headers.delete('content-length');
    return new Response(body, { status: res.status, headers });
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

const notAllowed = (c: Context<GatewayEnv>) =>
  c.json(
    {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless (no sessions); POST /mcp' },
      id: null,
    },
    405,
    { Allow: 'POST, OPTIONS' },
  );

export function registerMcp(app: Hono<GatewayEnv>): void {
  app.post('/mcp', answerMcp);
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
