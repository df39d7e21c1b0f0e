import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DchubClient, McpToolClient } from '@dchub/core';

/**
 * MCP through the gateway in tests: a proxy before the upstream that reads the JSON-RPC methods of
 * each request (so a test counts upstream tools/call), raw JSON-RPC posts, the SDK's client and
 * core's McpToolClient pointed at a replica with a gateway token, and a fetch that keeps every
 * answer (headers and body) a caller got, to look for a key in it.
 */

export interface SeenRpc {
  method: string;
  path: string;
  key: string | undefined;
  /** The JSON-RPC methods of the body (a batch lists each). */
  rpc: string[];
}

export interface McpProxy {
  url: string;
  seen: SeenRpc[];
  /** Upstream requests to /mcp carrying `method` (tools/call, tools/list…). */
  count(method: string): number;
  close(): Promise<void>;
}

function rpcMethods(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed])
      .map((m) => (m as { method?: unknown } | null)?.method)
      .filter((m): m is string => typeof m === 'string');
  } catch {
    return [];
  }
}

/** A proxy in front of `target` that records every request with the JSON-RPC methods its body carries. */
export async function mcpProxy(target: string): Promise<McpProxy> {
  const seen: SeenRpc[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = req.headers['x-api-key'] as string | undefined;
      seen.push({ method: req.method ?? '', path: req.url ?? '', key, rpc: rpcMethods(body.toString()) });
      void (async () => {
        try {
          const headers = Object.fromEntries(
            Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
          ) as Record<string, string>;
          const upstream = await fetch(target + (req.url ?? '/'), {
            method: req.method,
            headers,
            body: body.length ? body : undefined,
          });
          const out: Record<string, string> = {};
          upstream.headers.forEach((v, k) => {
            if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
          });
          res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
        } catch {
          res.writeHead(502).end();
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    count: (method) => seen.filter((s) => s.path.startsWith('/mcp') && s.rpc.includes(method)).length,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Every answer a caller got (status line, headers and body), kept to look for a key in it. */
export class AnswerLog {
  readonly texts: string[] = [];
  /** A fetch that keeps each answer it gets (core hands its fetch a Request). */
  readonly fetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    await this.keep(res.clone());
    return res;
  };
  async keep(res: Response): Promise<void> {
    const headers: string[] = [];
    res.headers.forEach((v, k) => headers.push(`${k}: ${v}`));
    this.texts.push(`${res.status}\n${headers.join('\n')}\n\n${await res.text()}`);
  }
  includes(s: string): boolean {
    return this.texts.some((t) => t.includes(s));
  }
}

/** One JSON-RPC request posted to a replica's /mcp as an MCP client posts it (stateless: no session). */
export async function postRpc(
  url: string,
  token: string | undefined,
  message: unknown,
  log?: AnswerLog,
): Promise<{ status: number; headers: Headers; json: unknown }> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Protocol-Version': '2025-06-18',
      ...(token ? { 'X-API-Key': token } : {}),
    },
    body: JSON.stringify(message),
  });
  await log?.keep(res.clone());
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as unknown) : undefined };
}

/** tools/call as a JSON-RPC message. */
export const toolCall = (name: string, args: Record<string, unknown>, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** The SDK's own MCP client, connected to `url`'s /mcp with `key` (a gateway token, or the service's key). */
export async function sdkClient(url: string, key: string | undefined, log?: AnswerLog): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: key ? { headers: { 'X-API-Key': key } } : undefined,
    ...(log ? { fetch: log.fetch } : {}),
  });
  const client = new Client({ name: 'gateway-test', version: '1' });
  await client.connect(transport);
  return client;
}

/** What a host runs (`dchub tool`, Excel's TOOL): core's McpToolClient over a DchubClient pointed at `url`. */
export function hostTools(url: string, key: string | undefined, log?: AnswerLog): McpToolClient {
  return new McpToolClient(new DchubClient({ baseUrl: url, apiKey: key }), {
    apiKey: key,
    ...(log ? { fetch: log.fetch } : {}),
  });
}
