#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ResponseCache } from '../cache/responses.js';
import { MemoryStore, type KeyValueStore } from '../cache/store.js';
import { DEFAULT_BASE_URL } from '../client.js';
import { createCallerClient } from '../connect.js';
import { parseDeriveMode } from '../derive/policy.js';
import { DirectoryStore, defaultCacheDir } from '../node.js';
import { normalizeBaseUrl } from '../http/baseurl.js';
import { runCommand } from './commands.js';
import { login, logout, resolveKey } from './login.js';
import type { OutputFormat } from './format.js';
import { EXIT, reportError, type CliIO } from './report.js';
import { VERSION } from '../version.js';

export { EXIT, UsageError, type CliIO } from './report.js';

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
  deals [--limit N] [--deal-type T] [--year Y] [--buyer B] [--seller S]
                                         (a keyed caller of the real service names one of
                                         --year, --buyer, --seller)
  parcel <file.geojson|-> [--capacity-mw N]
  rank <candidates.csv> --objectives f:w,... [--constraints f:min:max,...] [--mode M] [--top-k N]
                                         weights signed (+ maximizes, - minimizes); a bound may be
                                         blank (f::5), or written f:0..5, f>=50, f<=5
  chain --objectives f:w,... [--iso I] [--min-mw N] [--max-ttp-months N] [--top-k N]
        [--max-sites N] [--budget N]     queue → site score → ranking, progress on stderr
  tool <name> [key=value ...]            any of the 29 MCP tools
  quota                                  calls left today (no call spent)
  login [--api-key-file F]               store a key (typed without echo, or piped on stdin) in the
                                         system's credential store, else a file only you can read
  logout                                 forget the stored key
  cache stats | cache clear
  rpc                                    serve core to another program: JSON-RPC 2.0 on stdin/stdout
                                         (what the Python API and the Jupyter relay run)

Flags:
  --base-url URL     service root (env DCHUB_BASE_URL; default ${DEFAULT_BASE_URL})
  --api-key KEY      API key (visible to other users in ps: prefer the next three); never printed
  --api-key-file F   read the API key from a file
                     (else env DCHUB_API_KEY, else the key "dchub login" stored)
  --format F         table (default), csv or json
  --cache-dir DIR    where answers and the quota ledger are kept (default ~/.cache/dchub)
  --no-cache         do not read or write cached answers
  --no-derive        never answer a question from a cached wider answer (same as --derive off)
  --derive MODE      off, exact or widen (env DCHUB_DERIVE; default by tier: widen for free,
                     starter and developer keys, exact otherwise)
  --refresh          ask the service even when a fresh answer is cached (a failure still
                     falls back to the cached answer, marked stale)
  -V, --version
  -h, --help

Answers go to stdout; on stderr, one line each: a cached answer's age (and why it is stale),
what was mended or left out of the service's answer, and what a gated preview withholds.

Exit codes: 0 success (a gated preview or a stale cached answer too, noted on stderr),
2 bad usage, a 400 or an unknown name (404), 3 authentication or plan (401/402/403, an MCP plan wall),
4 rate limit or spent quota, 5 network, server or unreadable answer.
`;

/** Negative numbers (`-77.49`) are arguments, not flags: shield them from the option parser. */
const SHIELD = '\u0000';
const shield = (argv: string[]) => argv.map((a) => (/^-\d/.test(a) ? SHIELD + a : a));
const unshield = <T>(v: T): T => (typeof v === 'string' ? (v.replace(SHIELD, '') as T) : v);

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: shield(argv),
      allowPositionals: true,
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'api-key-file': { type: 'string' },
        format: { type: 'string', default: 'table' },
        'cache-dir': { type: 'string' },
        'no-cache': { type: 'boolean', default: false },
        refresh: { type: 'boolean', default: false },
        'no-derive': { type: 'boolean', default: false },
        derive: { type: 'string' },
        field: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'V', default: false },
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
        year: { type: 'string' },
        buyer: { type: 'string' },
        seller: { type: 'string' },
        objectives: { type: 'string' },
        constraints: { type: 'string' },
        mode: { type: 'string' },
        'top-k': { type: 'string' },
        'max-sites': { type: 'string' },
        budget: { type: 'string' },
      },
    });
  } catch (err) {
    io.err(`dchub: ${(err as Error).message}\n\n${HELP}`);
    return EXIT.usage;
  }
  const f = Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, unshield(v)])) as typeof parsed.values;
  const positionals = parsed.positionals.map(unshield);
  const [command, ...rest] = positionals;
  if (f.version) {
    io.out(`dchub ${VERSION}\n`);
    return EXIT.ok;
  }
  if (f.help || !command) {
    (f.help ? io.out : io.err)(HELP);
    return f.help ? EXIT.ok : EXIT.usage;
  }
  const format = f.format as OutputFormat;
  if (!['table', 'csv', 'json'].includes(format)) {
    io.err(`dchub: --format must be table, csv or json\n`);
    return EXIT.usage;
  }
  const deriveSetting = f['no-derive'] ? 'off' : (f.derive ?? io.env.DCHUB_DERIVE);
  const derive = parseDeriveMode(deriveSetting);
  if (deriveSetting !== undefined && deriveSetting !== '' && !derive) {
    io.err(`dchub: --derive must be off, exact or widen, got ${JSON.stringify(deriveSetting)}\n`);
    return EXIT.usage;
  }
  const cacheDir = f['cache-dir'] ?? io.env.DCHUB_CACHE_DIR ?? defaultCacheDir(io.env);
  // A directory that cannot be written (read-only, full): answers go uncached, said once on stderr.
  const store: KeyValueStore = new DirectoryStore(cacheDir, { onUnwritable: (why) => io.err(`dchub: ${why}\n`) });
  const baseUrl = f['base-url'] ?? io.env.DCHUB_BASE_URL ?? DEFAULT_BASE_URL;

  try {
    if (command === 'login' || command === 'logout') {
      const service = normalizeBaseUrl(baseUrl);
      await (command === 'login' ? login(service, { apiKeyFile: f['api-key-file'] }, io) : logout(service, io));
      return EXIT.ok;
    }
    const apiKey = await resolveKey({ apiKey: f['api-key'], apiKeyFile: f['api-key-file'] }, baseUrl, io);
    // One caller's client, cached answers and ledger (the tier assumed until the service states the allowance).
    const { client, ledger } = createCallerClient({ baseUrl, apiKey, store, derive, cache: !f['no-cache'] });
    const cache = client.cache ?? new ResponseCache(new MemoryStore());
    return await runCommand(command, rest, { client, ledger, cache, cacheDir, apiKey, format, io, flags: f });
  } catch (err) {
    return reportError(err, io);
  }
}
