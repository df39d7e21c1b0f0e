import type { ToolResult } from '../mcp.js';
import { toolExplanations, toolRefusal } from '../mcp-answers.js';
import { citationOf, describeAnswer, previewAttr, type NotebookAnswer, type NotebookWarning } from './answer.js';
import { frameColumns } from './columns.js';
import { text, type MethodContext } from './context.js';

const isRecord = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** The first list of records in a tool's answer (the answer itself when it is one), if any. */
function recordsOf(data: unknown): Record<string, unknown>[] | undefined {
  if (Array.isArray(data)) return data.length && data.every(isRecord) ? data : undefined;
  if (!isRecord(data)) return undefined;
  return Object.values(data).find(
    (v): v is Record<string, unknown>[] => Array.isArray(v) && v.length > 0 && v.every(isRecord),
  );
}

/** What to tell the user about a tool call: a stale answer's age and why, an assumed MCP allowance exceeded. */
function toolWarnings(name: string, r: ToolResult): NotebookWarning[] {
  return (r.warnings ?? []).map((line) =>
    r.stale
      ? { category: 'stale', message: `DC Hub: MCP ${name}: ${line}` }
      : { category: 'allowance', message: `DC Hub: MCP: ${line}` },
  );
}

/**
 * One of the 29 MCP tools: a table when the answer holds a list of records (a list the server cut
 * for this caller says so in `preview.partial`), else the answer's data. A plan wall is an
 * AuthError in one line; a tool's own error a ValidationError in its words (`toolRefusal`).
 */
export async function tool(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const name = text(args.name) ?? '';
  const given = isRecord(args.args) ? args.args : {};
  const mcp = await ctx.mcp();
  const typed = await mcp.typedArguments(name, given, {});
  const r = await mcp.callTool(name, typed, { refresh: ctx.call.refresh });
  // The tool's own error in its words (core's rule for every host).
  const refused = toolRefusal(r);
  if (refused) throw refused;
  // What the tool's answer explains (a message for the user, a generic answer's note), a `note` each.
  const said = toolExplanations(r);
  const notes: NotebookWarning[] = said.map((e) => ({ category: 'note', message: `DC Hub: ${e}` }));
  const warnings = [...toolWarnings(name, r), ...notes];
  const records = recordsOf(r.data);
  if (!records) return { shape: 'data', data: r.data, attrs: said.length ? { explanations: said } : {}, warnings };
  const stale = r.stale === true;
  const meta = {
    fromCache: r.fromCache,
    stale,
    preview: r.previewInfo !== undefined,
    fetchedAt: 0,
    ageMs: 0,
    warnings: [],
    ...(stale && r.warnings?.[0] ? { reason: r.warnings[0] } : {}),
  };
  const described = describeAnswer(meta, {
    path: `MCP ${name}`,
    citation: citationOf(r.data),
    shown: records.length,
    preview: r.previewInfo,
    explanations: said,
    extra: { tool: name },
  });
  described.attrs.preview = previewAttr(r.previewInfo, records.length, r.partial);
  // The tool's own lines (age and why, allowance) in its words, not the REST wording.
  described.warnings = [...described.warnings.filter((w) => w.category === 'preview'), ...warnings];
  return { shape: 'table', columns: frameColumns(records), ...described };
}
