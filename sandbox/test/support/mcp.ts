import { afterEach, beforeEach, expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpToolResult } from '@dchub/core';
import { resetLimits, useSandbox } from './sandbox.js';

export type Obj = Record<string, unknown>;

/**
 * The MCP suites' sandbox (seed `mcp`, the spec's clock, keys f1, d1, p1 and e1, the test controls) with
 * its daily counts forgotten before each test, and what the tests use on it: `connect` (a client over
 * streamable HTTP with a key as X-API-Key or Bearer, or none; closed after the test), `call` (a tool's
 * answer as JSON, checking that the text and structuredContent agree) and `rest` (a GET with a key).
 */
export function useMcpSandbox() {
  const sb = useSandbox({
    port: 0,
    seed: 'mcp',
    now: '2026-11-21T12:00:00Z',
    keys: 'free=f1,developer=d1,pro=p1,enterprise=e1',
    controls: true,
  });
  const open: Client[] = [];
  beforeEach(async () => {
    await resetLimits(sb);
  });
  afterEach(async () => {
    while (open.length)
      await open
        .pop()!
        .close()
        .catch(() => undefined);
  });

  async function connect(key?: string, bearer = false): Promise<Client> {
    const headers: Record<string, string> = key
      ? bearer
        ? { Authorization: `Bearer ${key}` }
        : { 'X-API-Key': key }
      : {};
    const client = new Client({ name: 'dchub-sandbox-test', version: '0.0.1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sb.url}/mcp`), { requestInit: { headers } }));
    open.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Obj = {}): Promise<{ isError: boolean; data: Obj }> {
    const raw = McpToolResult.parse(await client.callTool({ name, arguments: args }));
    const text = raw.content[0]?.text ?? '';
    const data = JSON.parse(text) as Obj;
    // The text content and structuredContent carry the same JSON.
    expect(raw.structuredContent).toEqual(data);
    return { isError: raw.isError === true, data };
  }

  const rest = async (path: string, key = 'e1') => {
    const res = await fetch(`${sb.url}${path}`, { headers: { 'X-API-Key': key } });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Obj };
  };

  return { sb, connect, call, rest };
}
