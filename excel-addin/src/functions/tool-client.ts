import { McpToolClient, ValidationError, toolTable, type CallOptions, type Cell } from '@dchub/core';
import { pairs } from './args';
import { loadSettings } from '../shared/settings';
import { serviceClient } from './service';
import { spill } from './spill';

let mcp: { client: McpToolClient; rest: unknown } | undefined;

async function toolClient(): Promise<McpToolClient> {
  const rest = await serviceClient();
  if (!mcp || mcp.rest !== rest) {
    await mcp?.client.close();
    mcp = { rest, client: new McpToolClient(rest, { apiKey: (await loadSettings()).apiKey }) };
  }
  return mcp.client;
}

/** Tool arguments from a two-column range or "k=v;k=v" text; numbers and booleans typed. */
export function toolArgs(v: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, raw] of pairs('args', v, /;/)) {
    if (typeof raw === 'number') out[k] = raw;
    else if (/^-?\d+(\.\d+)?$/.test(raw)) out[k] = Number(raw);
    else if (/^(true|false)$/i.test(raw)) out[k] = raw.toLowerCase() === 'true';
    else out[k] = raw;
  }
  return out;
}

export async function toolCall(name: string, args: unknown, opts: CallOptions): Promise<Cell[][]> {
  const client = await toolClient();
  const r = await client.callTool(name, toolArgs(args), { cacheOnly: opts.cacheOnly });
  if (r.isError) {
    const msg = typeof r.data === 'object' && r.data ? ((r.data as { error?: string; message?: string }).message ?? (r.data as { error?: string }).error) : r.text;
    throw new ValidationError('args', `${name}: ${msg ?? 'tool error'}`);
  }
  const t = toolTable(r);
  return t ? spill(t, 1) : spill({ columns: ['text'], rows: [[r.text]] }, 0);
}
