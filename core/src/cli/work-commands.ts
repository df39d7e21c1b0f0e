import { fetchMeta } from '../client.js';
import { chainCost, runChain } from '../chain.js';
import { parseCsv } from '../csv.js';
import { McpToolClient, toolTable } from '../mcp.js';
import { toolRefusal } from '../mcp-answers.js';
import { toolAnswerNotes } from '../notes.js';
import { namedValues } from '../args.js';
import { oneLine } from '../http/words.js';
import { analyzeParcel, parcelGeometry, parcelTable } from '../parcel.js';
import { SCORING_MODES, parseConstraints, parseObjectives, parseScoringMode } from '../ranking-args.js';
import { undeclaredToolArguments } from '../tool-args.js';
import { rankSites, rankedTable } from '../ranking.js';
import { render } from './format.js';
import {
  VALUE,
  emit,
  num,
  readAll,
  readUserFile,
  str,
  type CommandContext,
  type Command,
  type Flags,
} from './command.js';
import { UsageError, noteLines } from './report.js';

/** The commands that send work of the user's (a parcel, candidates, a chain, a tool's arguments). */

export const parcel: Command = {
  usage: `  parcel <file.geojson|-> [--capacity-mw N]
`,
  flags: { 'capacity-mw': VALUE },
  async run(args, ctx) {
    const file = args[0];
    if (!file) throw new UsageError('parcel needs a GeoJSON file (or - for standard input)');
    const text = file === '-' ? await readAll() : await readUserFile(file);
    const geometry = parcelGeometry(text, file === '-' ? 'standard input' : file);
    const p = await analyzeParcel(ctx.client, geometry, num('--capacity-mw', ctx.flags['capacity-mw']));
    emit(ctx, parcelTable(p), p);
  },
};

/** The ranking's flags, shared by rank and chain. */
const RANKING_FLAGS = { objectives: VALUE, constraints: VALUE, mode: VALUE, 'top-k': VALUE };
const ranking = (f: Flags) => ({
  objectives: parseObjectives(str(f.objectives), '--objectives'),
  constraints: parseConstraints(str(f.constraints), '--constraints'),
  mode: parseScoringMode(str(f.mode), '--mode'),
  top_k: num('--top-k', f['top-k']),
});

/** A candidates CSV's rows as records: `lon` read as `lng`, numbers as numbers, blank cells absent. */
function candidatesOf(csv: string): Record<string, unknown>[] {
  const table = parseCsv(csv);
  return table.rows.map((r) =>
    Object.fromEntries(
      table.columns.map((c, j) => [
        c === 'lon' ? 'lng' : c,
        r[j] === '' ? undefined : Number.isFinite(Number(r[j])) ? Number(r[j]) : r[j],
      ]),
    ),
  );
}

/** What rank's and chain's ranking flags take, said once for both commands' help. */
const RANKING_HELP = `                                         weights signed (+ maximizes, - minimizes); a bound may be
                                         blank (f::5), or written f:0..5, f>=50, f<=5;
                                         --mode ${SCORING_MODES.join(' | ')} (default relative)
`;

export const rank: Command = {
  usage: `  rank <candidates.csv> --objectives f:w,... [--constraints f:min:max,...] [--mode M] [--top-k N]
${RANKING_HELP}`,
  flags: RANKING_FLAGS,
  async run(args, ctx) {
    if (!args[0]) throw new UsageError('rank needs a candidates CSV file (id, lat, lon and metric columns)');
    const candidates = candidatesOf(await readUserFile(args[0]));
    const how = ranking(ctx.flags);
    const r = await rankSites(ctx.client, { candidates, ...how });
    emit(ctx, rankedTable(r, Object.keys(how.objectives)), r);
  },
};

export const chain: Command = {
  usage: `  chain --objectives f:w,... [--constraints f:min:max,...] [--mode M] [--iso I] [--min-mw N]
        [--max-ttp-months N] [--top-k N] [--max-sites N] [--budget N]
                                         queue → site score → ranking, progress on stderr
${RANKING_HELP}`,
  flags: { ...RANKING_FLAGS, iso: VALUE, 'min-mw': VALUE, 'max-ttp-months': VALUE, 'max-sites': VALUE, budget: VALUE },
  async run(_args, ctx) {
    const { client, io, flags: f } = ctx;
    const input = {
      filters: {
        iso: str(f.iso),
        min_mw: str(f['min-mw']),
        max_ttp_months: str(f['max-ttp-months']),
        geocoded_only: true,
      },
      ...ranking(f),
      maxSites: num('--max-sites', f['max-sites']),
      budget: num('--budget', f.budget),
    };
    const cost = await chainCost(client, input);
    io.err(
      `dchub: the chain costs at most ${cost.worstCase} calls; ${cost.remaining ?? 'an unknown number of calls (the service has not stated your allowance)'} left today\n`,
    );
    const r = await runChain(client, input, (p) => io.err(`dchub: [${p.step}] ${p.message}\n`));
    // The queue's explanations here; the ranking's come with its answer.
    const rankings = fetchMeta(r.ranked)?.explanations ?? [];
    for (const line of r.explanations.filter((l) => !rankings.includes(l))) io.err(`dchub: ${oneLine(line, 400)}\n`);
    emit(ctx, r.table, r.ranked);
  },
};

/** `key=value` arguments as pairs. */
const keyValues = (args: string[]): [string, string][] =>
  args.map((kv): [string, string] => {
    const m = /^([^=]+)=(.*)$/s.exec(kv);
    if (!m) throw new UsageError(`tool arguments are key=value, got ${JSON.stringify(kv)}`);
    return [m[1], m[2]];
  });

/** One MCP tool's call: typed by the tool's input schema, as the server lists it (core's coercion). */
async function callTool(mcp: McpToolClient, name: string, given: [string, string][], ctx: CommandContext) {
  const raw = Object.fromEntries(namedValues(given, 'args'));
  const args = await mcp.typedArguments(name, raw);
  const undeclared = undeclaredToolArguments(await mcp.inputSchema(name), raw);
  if (undeclared.length) ctx.io.err(`dchub: ${name} does not declare ${undeclared.join(', ')}; sent as given\n`);
  const r = await mcp.callTool(name, args, ctx.call);
  // The tool's own error in its words, with what it suggests (exit 2; a refused key exit 3).
  const refused = toolRefusal(r);
  if (refused) throw refused;
  return r;
}

export const tool: Command = {
  usage: `  tool <name> [key=value ...]            any of the 29 MCP tools
`,
  async run(args, ctx) {
    const { io, format } = ctx;
    if (!args[0]) throw new UsageError('tool needs a tool name (one of the 29 MCP tools)');
    const given = keyValues(args.slice(1));
    const mcp = new McpToolClient(ctx.client, { apiKey: ctx.apiKey });
    try {
      const r = await callTool(mcp, args[0], given, ctx);
      const t = toolTable(r);
      io.out(format === 'json' || !t ? JSON.stringify(r.data, null, 2) + '\n' : render(format, t, r.data));
      for (const line of noteLines(toolAnswerNotes(r))) io.err(line);
    } finally {
      await mcp.close();
    }
  },
};
