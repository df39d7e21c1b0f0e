import { toolExplanations, toolRefusal } from '../mcp-answers.js';
import { toolAnswerNotes } from '../notes.js';
import { citationOf, describeAnswer, notebookWarnings, previewAttr, type NotebookAnswer } from './answer.js';
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
  // What the tool's answer explains (a message for the user, a generic answer's note), its age and why when stale,
  // the calls past an assumed allowance, a cut list: core's notes, each a warning of its category.
  const said = toolExplanations(r);
  const warnings = notebookWarnings(toolAnswerNotes(r));
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
  described.warnings = warnings;
  return { shape: 'table', columns: frameColumns(records), ...described };
}
