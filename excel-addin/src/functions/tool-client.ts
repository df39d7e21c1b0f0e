import {
  McpToolClient,
  ValidationError,
  namedValues,
  toolRefusal,
  toolTable,
  type CallOptions,
  type Cell,
} from '@dchub/core';
import { rangeOrText } from './args';
import { toolClosingRows } from './notes';
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

/** Tool arguments as given: a two-column range (name, value) or "k=v;k=v" text (commas stay in values). */
export function toolArgs(v: unknown): Record<string, unknown> {
  return Object.fromEntries(namedValues(rangeOrText(v), 'args', /;/));
}

export async function toolCall(name: string, args: unknown, opts: CallOptions): Promise<Cell[][]> {
  const client = await toolClient();
  let typed: Record<string, unknown>;
  try {
    // Typed by the tool's input schema (core); in formula preview from core's copy, without connecting.
    typed = await client.typedArguments(name, toolArgs(args), { cacheOnly: opts.cacheOnly });
  } catch (err) {
    if (err instanceof ValidationError && err.param !== 'args' && err.param !== 'name')
      throw new ValidationError('args', err.message);
    throw err;
  }
  const r = await client.callTool(name, typed, { cacheOnly: opts.cacheOnly });
  // The tool's own error in its words, with the names, hint and example it suggests (core: #VALUE! or #N/A).
  const refused = toolRefusal(r);
  if (refused) throw refused;
  // A plan wall never gets here (core throws it as an AuthError with the upgrade message: #N/A); the
  // closing rows are core's notes: past an assumed daily allowance (the call still went out), a cut list.
  const closing = toolClosingRows(r);
  const t = toolTable(r);
  return t ? spill(t, 1, closing) : spill({ columns: ['text'], rows: [[r.text]] }, 0, closing);
}
