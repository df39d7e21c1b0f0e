import type { Context, Hono } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Authenticated } from '../auth.js';
import type { GatewayEnv } from '../context.js';
import { serveCall } from '../failover.js';
import type { Team } from '../team.js';
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
async function shareHeaders(team: Team, auth: Authenticated, spent: boolean): Promise<Record<string, string>> {
  const share = team.shareLedger(auth.caller);
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

/** One MCP HTTP answer, as the SDK's server gave it for `team`. */
interface McpAnswer {
  status: number;
  headers: Headers;
  body: string | null;
  word: CacheWord | undefined;
  spent: boolean;
}

async function answerWith(team: Team, request: Request): Promise<McpAnswer> {
  const { server, words, spent } = requestServer(team);
  // No session id: every request stands alone (see above). JSON answers: one HTTP answer per POST, whose
  // headers can say how its tool answers were obtained.
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const res = await transport.handleRequest(request);
    const body = res.body ? withoutSecret(await res.text(), team.secret) : null;
    return { status: res.status, headers: new Headers(res.headers), body, word: worstWord(words), spent: spent() };
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

/**
 * Through the team's shared state, or this replica's own when Redis cannot serve it (failover.ts): the
 * request is read once, so that a call that failed on Redis midway can be answered again locally.
 */
async function answerMcp(c: Context<GatewayEnv>): Promise<Response> {
  const { gateway, auth } = c.var;
  const raw = c.req.raw;
  const text = await c.req.text();
  const request = () => new Request(raw.url, { method: 'POST', headers: raw.headers, body: text, signal: raw.signal });
  const served = await serveCall(gateway, auth, (team) => answerWith(team, request()));
  if (served.degraded) c.set('degraded', true);
  const a = served.value;
  c.set('cacheStatus', a.word ?? (a.status >= 400 ? 'error' : 'none'));
  if (a.word) a.headers.set('X-DCHub-Cache', a.word);
  for (const [k, v] of Object.entries(await shareHeaders(served.team, auth, a.spent))) a.headers.set(k, v);
  a.headers.delete('content-length');
  return new Response(a.body, { status: a.status, headers: a.headers });
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
