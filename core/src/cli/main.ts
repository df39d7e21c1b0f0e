#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ResponseCache } from '../cache/responses.js';
import { MemoryStore, type KeyValueStore } from '../cache/store.js';
import { DEFAULT_BASE_URL } from '../client.js';
import { createCallerClient } from '../connect.js';
import { parseDeriveMode } from '../derive/policy.js';
import { DirectoryStore, defaultCacheDir } from '../node.js';
import { OFF, VALUE, str, type FlagOption, type Flags } from './command.js';
import { commandFlags, commandsHelp, offlineCommand, runCommand } from './commands.js';
import { resolveKey } from './login.js';
import type { OutputFormat } from './format.js';
import { EXIT, reportError, type CliIO } from './report.js';
import { VERSION } from '../version.js';

export { EXIT, UsageError, type CliIO } from './report.js';

/** The flags every command takes, and their lines under "Flags:" in `dchub --help`. */
const GLOBAL_FLAGS: Record<string, { option: FlagOption; usage: string }> = {
  'base-url': {
    option: VALUE,
    usage: `  --base-url URL     service root (env DCHUB_BASE_URL; default ${DEFAULT_BASE_URL})\n`,
  },
  'api-key': {
    option: VALUE,
    usage: '  --api-key KEY      API key (visible to other users in ps: prefer the next three); never printed\n',
  },
  'api-key-file': {
    option: VALUE,
    usage: `  --api-key-file F   read the API key from a file
                     (else env DCHUB_API_KEY, else the key "dchub login" stored)
`,
  },
  format: {
    option: { type: 'string', default: 'table' },
    usage: '  --format F         table (default), csv or json\n',
  },
  'cache-dir': {
    option: VALUE,
    usage: '  --cache-dir DIR    where answers and the quota ledger are kept (default ~/.cache/dchub)\n',
  },
  'no-cache': { option: OFF, usage: '  --no-cache         do not read or write cached answers\n' },
  'no-derive': {
    option: OFF,
    usage: '  --no-derive        never answer a question from a cached wider answer (same as --derive off)\n',
  },
  derive: {
    option: VALUE,
    usage: `  --derive MODE      off, exact or widen (env DCHUB_DERIVE; default by tier: widen for free,
                     starter and developer keys, exact otherwise)
`,
  },
  refresh: {
    option: OFF,
    usage: `  --refresh          ask the service even when a fresh answer is cached (a failure still
                     falls back to the cached answer, marked stale)
`,
  },
  version: { option: { ...OFF, short: 'V' }, usage: '  -V, --version\n' },
  help: { option: { ...OFF, short: 'h' }, usage: '  -h, --help\n' },
};

const HELP = `dchub — DC Hub from the command line

Usage: dchub <command> [arguments] [flags]

Commands:
${commandsHelp()}
Flags:
${Object.values(GLOBAL_FLAGS)
  .map((f) => f.usage)
  .join('')}
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

/** The command line: the flags (every command's and the global ones), the command and its arguments. */
function parseCommandLine(argv: string[]): { flags: Flags; command: string | undefined; rest: string[] } {
  const options = { ...commandFlags() };
  for (const [name, f] of Object.entries(GLOBAL_FLAGS)) options[name] = f.option;
  const parsed = parseArgs({ args: shield(argv), allowPositionals: true, options });
  const flags: Flags = Object.fromEntries(
    Object.entries(parsed.values).map(([k, v]) => [k, unshield(v as string | boolean | undefined)]),
  );
  const [command, ...rest] = parsed.positionals.map(unshield);
  return { flags, command, rest };
}

/** How this run answers: its output format, derive mode, cache and service (or a usage problem, in words). */
function runSettings(f: Flags, io: CliIO) {
  const format = f.format as OutputFormat;
  if (!['table', 'csv', 'json'].includes(format)) return { problem: '--format must be table, csv or json' };
  const deriveSetting = f['no-derive'] ? 'off' : (str(f.derive) ?? io.env.DCHUB_DERIVE);
  const derive = parseDeriveMode(deriveSetting);
  if (deriveSetting !== undefined && deriveSetting !== '' && !derive)
    return { problem: `--derive must be off, exact or widen, got ${JSON.stringify(deriveSetting)}` };
  const cacheDir = str(f['cache-dir']) ?? io.env.DCHUB_CACHE_DIR ?? defaultCacheDir(io.env);
  // A directory that cannot be written (read-only, full): answers go uncached, said once on stderr.
  const store: KeyValueStore = new DirectoryStore(cacheDir, { onUnwritable: (why) => io.err(`dchub: ${why}\n`) });
  const baseUrl = str(f['base-url']) ?? io.env.DCHUB_BASE_URL ?? DEFAULT_BASE_URL;
  return { format, derive, cacheDir, store, baseUrl };
}

/** Runs a command: with no client (login, logout), or with this caller's client, cache and ledger. */
async function dispatch(command: string, rest: string[], f: Flags, io: CliIO): Promise<number> {
  const settings = runSettings(f, io);
  if ('problem' in settings) {
    io.err(`dchub: ${settings.problem}\n`);
    return EXIT.usage;
  }
  const { format, derive, cacheDir, store, baseUrl } = settings;
  const service = { baseUrl, io, flags: f };
  const offline = offlineCommand(command);
  if (offline) {
    await offline(rest, service);
    return EXIT.ok;
  }
  const apiKey = await resolveKey({ apiKey: str(f['api-key']), apiKeyFile: str(f['api-key-file']) }, baseUrl, io);
  // One caller's client, cached answers and ledger (the tier assumed until the service states the allowance).
  const { client, ledger } = createCallerClient({ baseUrl, apiKey, store, derive, cache: !f['no-cache'] });
  const cache = client.cache ?? new ResponseCache(new MemoryStore());
  // --refresh: ask the service even when a fresh answer is cached (a failure still falls back to it).
  const call = { refresh: f.refresh === true };
  return runCommand(command, rest, { ...service, client, ledger, cache, cacheDir, apiKey, format, call });
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let line;
  try {
    line = parseCommandLine(argv);
  } catch (err) {
    io.err(`dchub: ${(err as Error).message}\n\n${HELP}`);
    return EXIT.usage;
  }
  const { flags: f, command, rest } = line;
  if (f.version) {
    io.out(`dchub ${VERSION}\n`);
    return EXIT.ok;
  }
  if (f.help || !command) {
    (f.help ? io.out : io.err)(HELP);
    return f.help ? EXIT.ok : EXIT.usage;
  }
  try {
    return await dispatch(command, rest, f, io);
  } catch (err) {
    return reportError(err, io);
  }
}
