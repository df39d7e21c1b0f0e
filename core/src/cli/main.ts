#!/usr/bin/env node
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { briefToRow, briefsTable, fetchBriefsAll, fetchBriefsCsv, fetchBriefsDiff } from '../briefs.js';
import { chainCost, runChain } from '../chain.js';
import { parseCsv, toCsv } from '../csv.js';
import { facilitiesTable, searchFacilities } from '../facilities.js';
import { dealsTable, news, newsTable, transactions } from '../feeds.js';
import { briefTable, briefsAllTable, dcpiScore, dcpiScoreFields, dcpiTable, getMarket, listMarkets, marketBrief, marketBriefFields, marketsTable } from '../markets.js';
import { McpToolClient, toolTable } from '../mcp.js';
import { namedValues } from '../args.js';
import { undeclaredToolArguments } from '../tool-args.js';
import { analyzeParcel, parcelGeometry, parcelTable } from '../parcel.js';
import { rankSites, rankedTable } from '../ranking.js';
import { fieldTable } from '../table.js';
import { ResponseCache } from '../cache/responses.js';
import { MemoryStore, type KeyValueStore } from '../cache/store.js';
import { DEFAULT_BASE_URL, fetchMeta } from '../client.js';
import { createCallerClient } from '../connect.js';
import { AuthError, DchubError, NetworkError, RateLimitError, ServerError, ValidationError } from '../errors.js';
import { DirectoryStore } from '../node.js';
import { queueTable, refineQueue } from '../queue.js';
import { siteScore, siteScoreTable } from '../sites.js';
import type { Table } from '../table.js';
import { parseDeriveMode } from '../derive/policy.js';
import type { PagesProgress } from '../paging.js';
import { describeDerived } from '../derive/sources.js';
import { parseConstraints, parseObjectives, parseScoringMode } from '../ranking-args.js';
import { UsageError, num, pickFields, shield, unshield } from './args.js';
import { render, type OutputFormat } from './format.js';

/** Exit codes (documented in the README). */
export const EXIT = { ok: 0, usage: 2, auth: 3, rateLimit: 4, failure: 5 } as const;

export { UsageError };

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
  env: Record<string, string | undefined>;
}

const HELP = `dchub — DC Hub from the command line

Usage: dchub <command> [arguments] [flags]

Commands:
  queue [--iso PJM,MISO] [--min-mw N] [--max-ttp-months N] [--fuel-type T] [--status S]
        [--baseload-only] [--max-fiber-km N] [--geocoded-only] [--limit N]
  score <lat> <lon> [--capacity-mw N]
  briefs [--csv] [--since ISO] [--limit N] [--offset N]
                                         every market brief of your tier, all pages (as served
                                         with --csv; only those recomputed after --since; one
                                         page with --limit/--offset)
  dcpi <market> [--field F[,G]]          power-readiness scores and verdict of a market (or some fields)
  brief <market> [--field PATH[,PATH]]   one market brief (or some fields, e.g. hero.verdict)
  markets [<market>]                     scored markets, or one market's details
  facilities <query> [--country CC] [--limit N]
  news [--limit N]
  deals [--limit N] [--deal-type T]
  parcel <file.geojson|-> [--capacity-mw N]
  rank <candidates.csv> --objectives f:w,... [--constraints f:min:max,...] [--mode M] [--top-k N]
                                         weights signed (+ maximizes, - minimizes); a bound may be
                                         blank (f::5), or written f:0..5, f>=50, f<=5
  chain --objectives f:w,... [--iso I] [--min-mw N] [--max-ttp-months N] [--top-k N]
        [--max-sites N] [--budget N]     queue → site score → ranking, progress on stderr
  tool <name> [key=value ...]            any of the 29 MCP tools
  quota                                  calls left today (no call spent)
  cache stats | cache clear

Flags:
  --base-url URL     service root (env DCHUB_BASE_URL; default ${DEFAULT_BASE_URL})
  --api-key KEY      API key (env DCHUB_API_KEY); never printed
  --format F         table (default), csv or json
  --cache-dir DIR    where answers and the quota ledger are kept (default ~/.cache/dchub)
  --no-cache         do not read or write cached answers
  --no-derive        never answer a question from a cached wider answer (same as --derive off)
  --derive MODE      off, exact or widen (env DCHUB_DERIVE; default by tier: widen for free,
                     starter and developer keys, exact otherwise)
  -h, --help

Exit codes: 0 success (a gated preview too, noted on stderr), 2 bad usage or a 400,
3 authentication or plan (401/402/403), 4 rate limit or spent quota, 5 network or server failure.
`;

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: shield(argv),
      allowPositionals: true,
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        format: { type: 'string', default: 'table' },
        'cache-dir': { type: 'string' },
        'no-cache': { type: 'boolean', default: false },
        'no-derive': { type: 'boolean', default: false },
        derive: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        iso: { type: 'string' },
        'min-mw': { type: 'string' },
        'max-ttp-months': { type: 'string' },
        'fuel-type': { type: 'string' },
        status: { type: 'string' },
        'baseload-only': { type: 'boolean' },
        'max-fiber-km': { type: 'string' },
        'geocoded-only': { type: 'boolean' },
        limit: { type: 'string' },
        'capacity-mw': { type: 'string' },
        csv: { type: 'boolean', default: false },
        since: { type: 'string' },
        offset: { type: 'string' },
        country: { type: 'string' },
        'deal-type': { type: 'string' },
        objectives: { type: 'string' },
        constraints: { type: 'string' },
        mode: { type: 'string' },
        'top-k': { type: 'string' },
        'max-sites': { type: 'string' },
        budget: { type: 'string' },
        field: { type: 'string' },
      },
    });
  } catch (err) {
    io.err(`dchub: ${(err as Error).message}\n\n${HELP}`);
    return EXIT.usage;
  }
  const f = Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, unshield(v)])) as typeof parsed.values;
  const positionals = parsed.positionals.map(unshield);
  const [command, ...rest] = positionals;
  if (f.help || !command) {
    (f.help ? io.out : io.err)(HELP);
    return f.help ? EXIT.ok : EXIT.usage;
  }
  const format = f.format as OutputFormat;
  if (!['table', 'csv', 'json'].includes(format)) {
    io.err(`dchub: --format must be table, csv or json\n`);
    return EXIT.usage;
  }
  const cacheDir = f['cache-dir'] ?? io.env.DCHUB_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'dchub');
  const store: KeyValueStore = new DirectoryStore(cacheDir);
  const apiKey = f['api-key'] ?? io.env.DCHUB_API_KEY;
  const deriveSetting = f['no-derive'] ? 'off' : (f.derive ?? io.env.DCHUB_DERIVE);
  const derive = parseDeriveMode(deriveSetting);
  if (deriveSetting !== undefined && deriveSetting !== '' && !derive) {
    io.err(`dchub: --derive must be off, exact or widen, got ${JSON.stringify(deriveSetting)}\n`);
    return EXIT.usage;
  }
  const baseUrl = f['base-url'] ?? io.env.DCHUB_BASE_URL ?? DEFAULT_BASE_URL;

  try {
    const { client, ledger } = createCallerClient({ baseUrl, apiKey, store, derive, cache: !f['no-cache'] });
    const cache = client.cache ?? new ResponseCache(new MemoryStore());
    const emit = (table: Table, raw: unknown, answer: unknown = raw) => {
      io.out(render(format, table, raw));
      const meta = fetchMeta(answer);
      if (meta?.stale) io.err(`dchub: served from cache (${Math.round(meta.ageMs / 60000)} min old): ${meta.reason}\n`);
      if (meta?.derivedFrom) io.err(`dchub: ${describeDerived(meta.derivedFrom)}; --no-derive asks the service\n`);
      const gated = answer as { _gated?: boolean; _hidden_count?: number; _upgrade_cta?: string } | null;
      if (gated?._gated) io.err(`dchub: gated preview — ${gated._hidden_count ?? 'some'} rows hidden. ${gated._upgrade_cta ?? 'Send an API key to see everything.'}\n`);
    };
    /** Some members of an answer (`--field`), as field/value rows or a JSON object of them. */
    const emitFields = (answer: unknown, fields: string) => {
      const picked = pickFields(answer, fields);
      emit(fieldTable(picked), picked, answer);
    };

    switch (command) {
      case 'queue': {
        const r = await refineQueue(client, {
          iso: f.iso,
          min_mw: f['min-mw'],
          max_ttp_months: f['max-ttp-months'],
          fuel_type: f['fuel-type'],
          status: f.status,
          baseload_only: f['baseload-only'],
          max_fiber_km: f['max-fiber-km'],
          geocoded_only: f['geocoded-only'],
          limit: f.limit,
        });
        emit(queueTable(r), r);
        return EXIT.ok;
      }
      case 'score': {
        if (rest.length < 2) throw new UsageError('score needs <lat> <lon>');
        const s = await siteScore(client, { lat: rest[0], lon: rest[1], capacity_mw: num('--capacity-mw', f['capacity-mw']) });
        emit(siteScoreTable(s), s);
        return EXIT.ok;
      }
      case 'briefs': {
        // Every page of a bulk read (Enterprise: about 232 briefs); progress on stderr past one page.
        const paged = {
          onProgress: (p: PagesProgress) => {
            if (p.pagesTotal > 1) io.err(`dchub: briefs page ${p.pagesDone} of ${p.pagesTotal} (${p.rowsDone} of ${p.rowsTotal} rows)\n`);
          },
        };
        if (f.since) {
          const d = await fetchBriefsDiff(client, f.since, paged);
          const t = briefsTable(d.briefs.map(briefToRow));
          io.out(f.csv ? toCsv(t) : render(format, t, d));
          io.err(`dchub: ${d.changed_total} briefs recomputed since ${f.since}\n`);
          return EXIT.ok;
        }
        if (f.limit || f.offset) {
          const all = await fetchBriefsAll(client, { limit: num('--limit', f.limit), offset: num('--offset', f.offset) });
          const t = briefsAllTable(all);
          io.out(f.csv ? toCsv(t) : render(format, t, all));
          return EXIT.ok;
        }
        const b = await fetchBriefsCsv(client, paged);
        if (f.csv) io.out(b.text);
        else emit(briefsTable(b.rows), b.rows);
        return EXIT.ok;
      }
      case 'dcpi': {
        if (!rest[0]) throw new UsageError('dcpi needs a market slug');
        if (f.field) {
          emitFields(await dcpiScoreFields(client, rest[0], f.field), f.field);
          return EXIT.ok;
        }
        const s = await dcpiScore(client, rest[0]);
        emit(dcpiTable(s), s);
        return EXIT.ok;
      }
      case 'brief': {
        if (!rest[0]) throw new UsageError('brief needs a market slug');
        if (f.field) {
          emitFields(await marketBriefFields(client, rest[0], f.field), f.field);
          return EXIT.ok;
        }
        const b = await marketBrief(client, rest[0]);
        emit(briefTable(b), b);
        return EXIT.ok;
      }
      case 'markets': {
        if (rest[0]) {
          const m = await getMarket(client, rest.join(' '));
          emit(fieldTable(m), m);
        } else {
          const m = await listMarkets(client);
          emit(marketsTable(m), m);
        }
        return EXIT.ok;
      }
      case 'facilities': {
        const r = await searchFacilities(client, { q: rest.join(' ') || undefined, country: f.country, limit: num('--limit', f.limit) });
        emit(facilitiesTable(r), r);
        return EXIT.ok;
      }
      case 'news': {
        const r = await news(client, { limit: num('--limit', f.limit) });
        emit(newsTable(r), r);
        return EXIT.ok;
      }
      case 'deals': {
        const r = await transactions(client, { limit: num('--limit', f.limit), deal_type: f['deal-type'] });
        emit(dealsTable(r), r);
        return EXIT.ok;
      }
      case 'parcel': {
        if (!rest[0]) throw new UsageError('parcel needs a GeoJSON file (or - for standard input)');
        const text = rest[0] === '-' ? await readStdin() : await readFile(rest[0], 'utf8').catch(() => {
          throw new UsageError(`cannot read ${rest[0]}`);
        });
        const p = await analyzeParcel(client, parcelGeometry(text, rest[0] === '-' ? 'standard input' : rest[0]), num('--capacity-mw', f['capacity-mw']));
        emit(parcelTable(p), p);
        return EXIT.ok;
      }
      case 'rank': {
        if (!rest[0]) throw new UsageError('rank needs a candidates CSV file (id, lat, lon and metric columns)');
        const table = parseCsv(await readFile(rest[0], 'utf8').catch(() => {
          throw new UsageError(`cannot read ${rest[0]}`);
        }));
        const candidates = table.rows.map((r) => Object.fromEntries(table.columns.map((c, j) => [c === 'lon' ? 'lng' : c, r[j] === '' ? undefined : Number.isFinite(Number(r[j])) ? Number(r[j]) : r[j]])));
        const objectives = parseObjectives(f.objectives, '--objectives');
        const r = await rankSites(client, {
          candidates,
          objectives,
          constraints: parseConstraints(f.constraints, '--constraints'),
          mode: parseScoringMode(f.mode, '--mode'),
          top_k: num('--top-k', f['top-k']),
        });
        emit(rankedTable(r, Object.keys(objectives)), r);
        return EXIT.ok;
      }
      case 'chain': {
        const input = {
          filters: { iso: f.iso, min_mw: f['min-mw'], max_ttp_months: f['max-ttp-months'], geocoded_only: true },
          objectives: parseObjectives(f.objectives, '--objectives'),
          constraints: parseConstraints(f.constraints, '--constraints'),
          mode: parseScoringMode(f.mode, '--mode'),
          top_k: num('--top-k', f['top-k']),
          maxSites: num('--max-sites', f['max-sites']),
          budget: num('--budget', f.budget),
        };
        const cost = await chainCost(client, input);
        io.err(`dchub: the chain costs at most ${cost.worstCase} calls; ${cost.remaining ?? 'unknown'} left today\n`);
        const r = await runChain(client, input, (p) => io.err(`dchub: [${p.step}] ${p.message}\n`));
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
        const mcp = new McpToolClient(client, { apiKey });
        try {
          // Typed by the tool's input schema, as the server lists it (core's coercion).
          const raw = Object.fromEntries(namedValues(given, 'args'));
          const args = await mcp.typedArguments(rest[0], raw);
          const undeclared = undeclaredToolArguments(await mcp.inputSchema(rest[0]), raw);
          if (undeclared.length) io.err(`dchub: ${rest[0]} does not declare ${undeclared.join(', ')}; sent as given\n`);
          const r = await mcp.callTool(rest[0], args);
          if (r.isError) {
            io.err(`dchub: ${rest[0]}: ${r.text}\n`);
            return EXIT.usage;
          }
          const t = toolTable(r);
          io.out(format === 'json' || !t ? JSON.stringify(r.data, null, 2) + '\n' : render(format, t, r.data));
        } finally {
          await mcp.close();
        }
        return EXIT.ok;
      }
      case 'quota': {
        const s = await ledger.snapshot();
        const table: Table = { columns: ['tier', 'limit', 'used', 'remaining', 'resets_at'], rows: [[s.tier, s.limit, s.used, s.remaining, s.resetsAt]] };
        io.out(render(format, table, s));
        return EXIT.ok;
      }
      case 'cache': {
        if (rest[0] === 'clear') {
          const n = await cache.clear();
          io.out(`cleared ${n} cached answers from ${cacheDir}\n`);
          return EXIT.ok;
        }
        if (rest[0] === 'stats' || rest[0] === undefined) {
          const n = await cache.count();
          io.out(render(format, { columns: ['directory', 'answers'], rows: [[cacheDir, n]] }, { directory: cacheDir, answers: n }));
          return EXIT.ok;
        }
        throw new UsageError('cache takes stats or clear');
      }
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (err) {
    return reportError(err, io);
  }
}

function reportError(err: unknown, io: CliIO): number {
  const msg = err instanceof Error ? err.message : String(err);
  if (err instanceof UsageError) {
    io.err(`dchub: ${msg}\n(dchub --help for usage)\n`);
    return EXIT.usage;
  }
  io.err(`dchub: ${msg}\n`);
  if (err instanceof AuthError && err.authInstructions) io.err(`dchub: see ${err.authInstructions}\n`);
  if (err instanceof ValidationError) return EXIT.usage;
  if (err instanceof AuthError) return EXIT.auth;
  if (err instanceof RateLimitError) return EXIT.rateLimit;
  if (err instanceof NetworkError || err instanceof ServerError) return EXIT.failure;
  if (err instanceof DchubError) return err.kind === 'validation' ? EXIT.usage : EXIT.failure;
  return EXIT.failure;
}
