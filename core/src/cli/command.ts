import { readFile } from 'node:fs/promises';
import type { ParseArgsConfig } from 'node:util';
import type { QuotaLedger } from '../cache/ledger.js';
import type { ResponseCache } from '../cache/responses.js';
import { fetchMeta, type CallOptions, type DchubClient } from '../client.js';
import { fieldTable, readPath, type Table } from '../table.js';
import { render, type OutputFormat } from './format.js';
import { UsageError, answerNotes, type CliIO } from './report.js';

/** The flags as parsed: text, a switch, or absent. */
export type Flags = Record<string, string | boolean | undefined>;

/** The flags a command takes, as node:util's parseArgs declares them. */
export type FlagOptions = NonNullable<ParseArgsConfig['options']>;
export type FlagOption = FlagOptions[string];

/** A flag that takes a value (numbers are read by the command: `num`). */
export const VALUE = { type: 'string' } as const;
/** A flag that is on or absent. */
export const SWITCH = { type: 'boolean' } as const;
/** A switch that reads false when absent. */
export const OFF = { ...SWITCH, default: false } as const;

/** What a command that needs no client has (login, logout): the service it is about, the parsed flags. */
export interface ServiceContext {
  baseUrl: string;
  io: CliIO;
  flags: Flags;
}

/** Everything a command needs: the client, its stores, the output format and the parsed flags. */
export interface CommandContext extends ServiceContext {
  client: DchubClient;
  ledger: QuotaLedger;
  cache: ResponseCache;
  cacheDir: string;
  apiKey: string | undefined;
  format: OutputFormat;
  /** How the command's calls go (--refresh: ask the service even when a fresh answer is cached). */
  call: CallOptions;
}

interface CommandHelp {
  /** Its lines under "Commands:" in `dchub --help`. */
  usage: string;
  /** The flags it takes beyond the global ones. */
  flags?: FlagOptions;
}

/**
 * One `dchub` command: its help, its flags and what runs it — with a caller's client (`run`), with
 * the service's URL alone (`offline`: before any key is read), or nothing here (`servedBy`: a
 * command another entry point starts, listed for the help).
 */
export type Command = CommandHelp &
  (
    | { run: (args: string[], ctx: CommandContext) => Promise<void> }
    | { offline: (args: string[], ctx: ServiceContext) => Promise<void> }
    | { servedBy: string }
  );

/** A flag's number (absent: undefined; not a number: a usage error naming the flag). */
export const num = (name: string, v: string | boolean | undefined): number | undefined => {
  if (v === undefined || typeof v === 'boolean') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
};

/** A flag's text (absent or a bare switch: undefined). */
export const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** All of a stream (standard input by default) as text. */
export async function readAll(stream: AsyncIterable<unknown> = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A file the user named, as text (a file that cannot be read is a usage error). */
export const readUserFile = (file: string): Promise<string> =>
  readFile(file, 'utf8').catch(() => {
    throw new UsageError(`cannot read ${file}`);
  });

/** The table on stdout (or `text` verbatim), then the answer's age, warnings and preview on stderr. */
export function emit(ctx: CommandContext, table: Table, raw: unknown, text?: string, answer: unknown = raw): void {
  ctx.io.out(text ?? render(ctx.format, table, raw));
  for (const line of answerNotes(fetchMeta(answer))) ctx.io.err(line);
}

/** Some members of an answer (`--field`), by path, as field/value rows or a JSON object of them. */
export function emitFields(ctx: CommandContext, answer: unknown, fields: string): void {
  const picked: Record<string, unknown> = {};
  for (const path of fields
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const v = readPath(answer, path);
    // A field the answer lacks is a usage error.
    if (v === undefined) throw new UsageError(`--field: no member ${JSON.stringify(path)} in this answer`);
    picked[path] = v;
  }
  emit(ctx, fieldTable(picked), picked, undefined, answer);
}
