import { readFile } from 'node:fs/promises';
import { briefToRow, briefsTable, fetchBriefsAll, fetchBriefsCsv, fetchBriefsDiff } from '../briefs.js';
import type { LedgerSnapshot, QuotaLedger } from '../cache/ledger.js';
import { quotaLine } from '../cache/quota-line.js';
import type { ResponseCache } from '../cache/responses.js';
import { fetchMeta, type DchubClient } from '../client.js';
import { chainCost, runChain } from '../chain.js';
import { parseCsv, toCsv } from '../csv.js';
import { facilitiesTable, searchFacilities } from '../facilities.js';
import { dealsTable, news, newsTable, transactions } from '../feeds.js';
import {
  briefTable,
  briefsAllTable,
  dcpiScore,
  dcpiScoreFields,
  dcpiTable,
  getMarket,
  listMarkets,
  marketBrief,
  marketBriefFields,
  marketsTable,
} from '../markets.js';
import { McpToolClient, toolTable } from '../mcp.js';
import { toolRefusal } from '../mcp-answers.js';
import { toolAnswerNotes } from '../notes.js';
import { namedValues } from '../args.js';
import { oneLine } from '../http/words.js';
import { analyzeParcel, parcelGeometry, parcelTable } from '../parcel.js';
import type { PagesProgress } from '../paging.js';
import { parseConstraints, parseObjectives, parseScoringMode } from '../ranking-args.js';
import { undeclaredToolArguments } from '../tool-args.js';
import { queueTable, refineQueue } from '../queue.js';
import { QUEUE_PREDICATES } from '../schemas/queue.js';
import { rankSites, rankedTable } from '../ranking.js';
import { siteScore, siteScoreTable } from '../sites.js';
import { fieldTable, readPath, type Table } from '../table.js';
import { render, type OutputFormat } from './format.js';
import { EXIT, UsageError, answerNotes, noteLines, type CliIO } from './report.js';

/** Everything a command needs: the client, its stores, the output format and the parsed flags. */
export interface CommandContext {
  client: DchubClient;
  ledger: QuotaLedger;
  cache: ResponseCache;
  cacheDir: string;
  apiKey: string | undefined;
  format: OutputFormat;
  io: CliIO;
  flags: Record<string, string | boolean | undefined>;
}

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export const num = (name: string, v: string | boolean | undefined): number | undefined => {
  if (v === undefined || typeof v === 'boolean') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
};

const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** The asked members of an answer, by path (a field the answer lacks is a usage error). */
function pickFields(data: unknown, fields: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of fields
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const v = readPath(data, path);
    if (v === undefined) throw new UsageError(`--field: no member ${JSON.stringify(path)} in this answer`);
    out[path] = v;
  }
  return out;
}

/** The day's allowance: the ledger's own, or behind a team gateway the caller's share and the team's. */
function quotaTable(s: LedgerSnapshot): Table {
  if (!s.viaGateway)
    return {
      columns: ['tier', 'limit', 'used', 'remaining', 'resets_at', 'confirmed'],
      rows: [[s.tier, s.limit, s.used, s.remaining, s.resetsAt, s.confirmed]],
    };
  const g = s.gateway;
  return {
    columns: ['via', 'share_remaining', 'share_limit', 'team_remaining', 'team_limit', 'resets_at'],
    rows: [
      [
        'the team gateway',
        g?.shareRemaining ?? '',
        g?.shareLimit ?? '',
        g?.teamRemaining ?? '',
        g?.teamLimit ?? '',
        g?.resetsAt ?? '',
      ],
    ],
    note: quotaLine(s),
  };
}

/** Runs one command; the answer on stdout, what to know about it on stderr. */
export async function runCommand(command: string, rest: string[], ctx: CommandContext): Promise<number> {
  const { client, io, format, flags: f } = ctx;
  // --refresh: ask the service even when a fresh answer is cached (a failure still falls back to it).
  const call = { refresh: f.refresh === true };
  /** The table on stdout (or `text` verbatim), then the answer's age, warnings and preview on stderr. */
  const emit = (table: Table, raw: unknown, text?: string, answer: unknown = raw) => {
    io.out(text ?? render(format, table, raw));
    for (const line of answerNotes(fetchMeta(answer))) io.err(line);
  };
  /** Some members of an answer (`--field`), as field/value rows or a JSON object of them. */
  const emitFields = (answer: unknown, fields: string) => {
    const picked = pickFields(answer, fields);
    emit(fieldTable(picked), picked, undefined, answer);
  };

  switch (command) {
    case 'queue': {
      // Each predicate's flag is its name with dashes (--min-mw for min_mw).
      const r = await refineQueue(
        client,
        Object.fromEntries(QUEUE_PREDICATES.map((k) => [k, f[k.replace(/_/g, '-')]])),
        call,
      );
      emit(queueTable(r), r);
      return EXIT.ok;
    }
    case 'score': {
      if (rest.length < 2) throw new UsageError('score needs <lat> <lon>');
      const s = await siteScore(
        client,
        { lat: rest[0], lon: rest[1], capacity_mw: num('--capacity-mw', f['capacity-mw']) },
        call,
      );
      emit(siteScoreTable(s), s);
      return EXIT.ok;
    }
    case 'briefs': {
      // Every page of a bulk read (Enterprise: about 232 briefs); progress on stderr past one page.
      const paged = {
        ...call,
        onProgress: (p: PagesProgress) => {
          if (p.pagesTotal > 1)
            io.err(`dchub: briefs page ${p.pagesDone} of ${p.pagesTotal} (${p.rowsDone} of ${p.rowsTotal} rows)\n`);
        },
      };
      if (f.since) {
        const d = await fetchBriefsDiff(client, String(f.since), paged);
        const t = briefsTable(d.briefs.map(briefToRow));
        emit(t, d, f.csv ? toCsv(t) : undefined);
        io.err(`dchub: ${d.changed_total} briefs recomputed since ${f.since}\n`);
        return EXIT.ok;
      }
      if (f.limit || f.offset) {
        const all = await fetchBriefsAll(
          client,
          { limit: num('--limit', f.limit), offset: num('--offset', f.offset) },
          call,
        );
        const t = briefsAllTable(all);
        emit(t, all, f.csv ? toCsv(t) : undefined);
        return EXIT.ok;
      }
      const b = await fetchBriefsCsv(client, paged);
      emit(briefsTable(b.rows), b.rows, f.csv ? b.text : undefined, b);
      return EXIT.ok;
    }
    case 'dcpi': {
      if (!rest[0]) throw new UsageError('dcpi needs a market slug');
      if (typeof f.field === 'string') {
        emitFields(await dcpiScoreFields(client, rest[0], f.field, call), f.field);
        return EXIT.ok;
      }
      const s = await dcpiScore(client, rest[0], call);
      emit(dcpiTable(s), s);
      return EXIT.ok;
    }
    case 'brief': {
      if (!rest[0]) throw new UsageError('brief needs a market slug');
      if (typeof f.field === 'string') {
        emitFields(await marketBriefFields(client, rest[0], f.field, call), f.field);
        return EXIT.ok;
      }
      const b = await marketBrief(client, rest[0], call);
      emit(briefTable(b), b);
      return EXIT.ok;
    }
    case 'markets': {
      if (rest[0]) {
        const m = await getMarket(client, rest.join(' '), call);
        emit(fieldTable(m), m);
      } else {
        const m = await listMarkets(client, call);
        emit(marketsTable(m), m);
      }
      return EXIT.ok;
    }
    case 'facilities': {
      const r = await searchFacilities(
        client,
        { q: rest.join(' ') || undefined, country: str(f.country), limit: num('--limit', f.limit) },
        call,
      );
      emit(facilitiesTable(r), r);
      return EXIT.ok;
    }
    case 'news': {
      const r = await news(client, { limit: num('--limit', f.limit) }, call);
      emit(newsTable(r), r);
      return EXIT.ok;
    }
    case 'deals': {
      const r = await transactions(
        client,
        {
          limit: num('--limit', f.limit),
          deal_type: str(f['deal-type']),
          year: num('--year', f.year),
          buyer: str(f.buyer),
          seller: str(f.seller),
        },
        call,
      );
      emit(dealsTable(r), r);
      return EXIT.ok;
    }
    case 'parcel': {
      if (!rest[0]) throw new UsageError('parcel needs a GeoJSON file (or - for standard input)');
      const text =
        rest[0] === '-'
          ? await readStdin()
          : await readFile(rest[0], 'utf8').catch(() => {
              throw new UsageError(`cannot read ${rest[0]}`);
            });
      const p = await analyzeParcel(
        client,
        parcelGeometry(text, rest[0] === '-' ? 'standard input' : rest[0]),
        num('--capacity-mw', f['capacity-mw']),
      );
      emit(parcelTable(p), p);
      return EXIT.ok;
    }
    case 'rank': {
      if (!rest[0]) throw new UsageError('rank needs a candidates CSV file (id, lat, lon and metric columns)');
      const table = parseCsv(
        await readFile(rest[0], 'utf8').catch(() => {
          throw new UsageError(`cannot read ${rest[0]}`);
        }),
      );
      const candidates = table.rows.map((r) =>
        Object.fromEntries(
          table.columns.map((c, j) => [
            c === 'lon' ? 'lng' : c,
            r[j] === '' ? undefined : Number.isFinite(Number(r[j])) ? Number(r[j]) : r[j],
          ]),
        ),
      );
      const objectives = parseObjectives(str(f.objectives), '--objectives');
      const r = await rankSites(client, {
        candidates,
        objectives,
        constraints: parseConstraints(str(f.constraints), '--constraints'),
        mode: parseScoringMode(str(f.mode), '--mode'),
        top_k: num('--top-k', f['top-k']),
      });
      emit(rankedTable(r, Object.keys(objectives)), r);
      return EXIT.ok;
    }
    case 'chain': {
      const input = {
        filters: {
          iso: str(f.iso),
          min_mw: str(f['min-mw']),
          max_ttp_months: str(f['max-ttp-months']),
          geocoded_only: true,
        },
        objectives: parseObjectives(str(f.objectives), '--objectives'),
        constraints: parseConstraints(str(f.constraints), '--constraints'),
        mode: parseScoringMode(str(f.mode), '--mode'),
        top_k: num('--top-k', f['top-k']),
        maxSites: num('--max-sites', f['max-sites']),
        budget: num('--budget', f.budget),
      };
      const cost = await chainCost(client, input);
      io.err(
        `dchub: the chain costs at most ${cost.worstCase} calls; ${cost.remaining ?? 'an unknown number of calls (the service has not stated your allowance)'} left today\n`,
      );
      const r = await runChain(client, input, (p) => io.err(`dchub: [${p.step}] ${p.message}\n`));
      // The queue's explanations here; the ranking's come with its answer.
      const ranking = fetchMeta(r.ranked)?.explanations ?? [];
      for (const line of r.explanations.filter((l) => !ranking.includes(l))) io.err(`dchub: ${oneLine(line, 400)}\n`);
      emit(r.table, r.ranked);
      return EXIT.ok;
    }
    case 'tool': {
      if (!rest[0]) throw new UsageError('tool needs a tool name (one of the 29 MCP tools)');
      const given = rest.slice(1).map((kv): [string, string] => {
        const m = /^([^=]+)=(.*)$/s.exec(kv);
        if (!m) throw new UsageError(`tool arguments are key=value, got ${JSON.stringify(kv)}`);
        return [m[1], m[2]];
      });
      const mcp = new McpToolClient(client, { apiKey: ctx.apiKey });
      try {
        // Typed by the tool's input schema, as the server lists it (core's coercion).
        const raw = Object.fromEntries(namedValues(given, 'args'));
        const args = await mcp.typedArguments(rest[0], raw);
        const undeclared = undeclaredToolArguments(await mcp.inputSchema(rest[0]), raw);
        if (undeclared.length) io.err(`dchub: ${rest[0]} does not declare ${undeclared.join(', ')}; sent as given\n`);
        const r = await mcp.callTool(rest[0], args, call);
        // The tool's own error in its words, with what it suggests (exit 2; a refused key exit 3).
        const refused = toolRefusal(r);
        if (refused) throw refused;
        const t = toolTable(r);
        io.out(format === 'json' || !t ? JSON.stringify(r.data, null, 2) + '\n' : render(format, t, r.data));
        for (const line of noteLines(toolAnswerNotes(r))) io.err(line);
      } finally {
        await mcp.close();
      }
      return EXIT.ok;
    }
    case 'quota': {
      const s = await ctx.ledger.snapshot();
      io.out(render(format, quotaTable(s), { ...s, line: quotaLine(s) }));
      // Behind a gateway the line says so in every format (a table shows it under itself, on stdout).
      if (s.viaGateway && format !== 'table') io.err(`dchub: ${quotaLine(s)}\n`);
      if (!s.viaGateway && !s.confirmed)
        io.err(
          'dchub: the allowance is assumed from the tier (the service has not stated it yet); it warns but never refuses calls\n',
        );
      return EXIT.ok;
    }
    case 'cache': {
      if (rest[0] === 'clear') {
        const n = await ctx.cache.clear();
        io.out(`cleared ${n} cached answers from ${ctx.cacheDir}\n`);
        return EXIT.ok;
      }
      if (rest[0] === 'stats' || rest[0] === undefined) {
        const n = await ctx.cache.count();
        io.out(
          render(
            format,
            { columns: ['directory', 'answers'], rows: [[ctx.cacheDir, n]] },
            { directory: ctx.cacheDir, answers: n },
          ),
        );
        return EXIT.ok;
      }
      throw new UsageError('cache takes stats or clear');
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}
