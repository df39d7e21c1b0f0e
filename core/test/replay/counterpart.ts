import http from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { loopback } from '../support/loopback.js';
import type { ReplayCase, Reply, Route } from './types.js';

/**
 * The local counterpart of the replay suite: one loopback server (port 0) that answers each case
 * under its own prefix (`/c/<n>/…`) with the case's recorded shapes, in order when a route holds
 * several replies, and an MCP endpoint (official SDK, stateless streamable HTTP) answering the
 * case's tool result. A second loopback server stands for "another origin" (redirect cases).
 */
export interface Counterpart {
  /** Base URL of case `n`. */
  baseUrl(n: number): string;
  /** Requests the other origin received (must stay 0 when a key was set). */
  otherHits(n: number): number;
  /** Requests case `n` received. */
  hits(n: number): number;
  close(): Promise<void>;
}

function matches(route: Route, method: string, path: string, query: URLSearchParams): boolean {
  if ((route.method ?? 'GET') !== method) return false;
  if (typeof route.path === 'string' ? route.path !== path : !route.path.test(path)) return false;
  return Object.entries(route.query ?? {}).every(([k, v]) => query.get(k) === v);
}

/**
 * "Another origin" of the redirect cases: answers case `n`'s `otherOrigin` under `/c/<n>/…` and counts what it was
 * asked.
 */
export interface OtherOrigin {
  url: string;
  hits(n: number): number;
  close(): Promise<void>;
}

export async function startOtherOrigin(cases: readonly ReplayCase[]): Promise<OtherOrigin> {
  const hits = new Map<number, number>();
  const server = await loopback((req, res) => {
    const n = Number(/^\/c\/(\d+)\//.exec(req.url ?? '')?.[1] ?? -1);
    hits.set(n, (hits.get(n) ?? 0) + 1);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(cases[n]?.otherOrigin ?? { error: 'the other origin has nothing here' }));
  });
  return { url: server.url, hits: (n) => hits.get(n) ?? 0, close: server.close };
}

export async function startCounterpart(cases: readonly ReplayCase[]): Promise<Counterpart> {
  const hits = new Map<number, number>();
  const served = new Map<string, number>(); // `${case}:${route}` → replies already given
  const other = await startOtherOrigin(cases);

  const send = (res: http.ServerResponse, reply: Reply, n: number) => {
    const headers: Record<string, string> = { ...(reply.headers ?? {}) };
    if (reply.redirect)
      headers.Location = reply.redirect.replace(/^other:/, `${other.url}/c/${n}`).replace(/^self:/, `/c/${n}`);
    const text =
      reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type') && reply.body !== undefined) {
      headers['Content-Type'] = typeof reply.body === 'string' ? 'text/plain' : 'application/json';
    }
    res.writeHead(reply.status ?? 200, headers);
    res.end(text);
  };

  const mcp = async (req: http.IncomingMessage, res: http.ServerResponse, c: ReplayCase, body: string) => {
    const server = new Server(
      { name: 'DC Hub Intelligence (replay)', version: '2.12.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: c.mcp?.tool ?? 'none', inputSchema: { type: 'object' as const, properties: {} } }],
    }));
    server.setRequestHandler(
      CallToolRequestSchema,
      async () => (c.mcp?.result ?? { content: [{ type: 'text', text: '{}' }] }) as never,
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
  };

  const main = await loopback(async (req, res, body) => {
    const m = /^\/c\/(\d+)(\/[^?]*)?(\?.*)?$/.exec(req.url ?? '');
    const n = Number(m?.[1] ?? -1);
    const c = cases[n];
    if (!c) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ error: 'no such replay case' }));
    }
    hits.set(n, (hits.get(n) ?? 0) + 1);
    const path = m?.[2] ?? '/';
    if (path === '/mcp') return mcp(req, res, c, body);
    const query = new URLSearchParams(m?.[3] ?? '');
    const i = c.routes.findIndex((r) => matches(r, req.method ?? 'GET', path, query));
    if (i < 0) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ error: `replay case ${n} has no route for ${req.method} ${path}` }));
    }
    const route = c.routes[i];
    const replies = Array.isArray(route.reply) ? route.reply : [route.reply];
    const k = `${n}:${i}`;
    const used = served.get(k) ?? 0;
    served.set(k, used + 1);
    send(res, replies[Math.min(used, replies.length - 1)], n);
  });

  return {
    baseUrl: (n) => `${main.url}/c/${n}`,
    otherHits: (n) => other.hits(n),
    hits: (n) => hits.get(n) ?? 0,
    close: async () => {
      await main.close();
      await other.close();
    },
  };
}
