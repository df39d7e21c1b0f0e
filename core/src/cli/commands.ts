import type { Command, CommandContext, FlagOptions, ServiceContext } from './command.js';
import { cache, login, logout, quota, rpc } from './local-commands.js';
import { brief, briefs, dcpi, deals, facilities, markets, newsCommand, queue, score } from './read-commands.js';
import { EXIT, UsageError } from './report.js';
import { chain, parcel, rank, tool } from './work-commands.js';

/** Every `dchub` command by name, in the order `dchub --help` lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  queue,
  score,
  briefs,
  dcpi,
  brief,
  markets,
  facilities,
  news: newsCommand,
  deals,
  parcel,
  rank,
  chain,
  tool,
  quota,
  login,
  logout,
  cache,
  rpc,
};

/** The command of that name (an unknown one is a usage error). */
function commandNamed(name: string): Exclude<Command, { servedBy: string }> {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command || 'servedBy' in command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  return command;
}

/** What runs a command that needs no client (login, logout), if `name` is one. */
export function offlineCommand(name: string): ((args: string[], ctx: ServiceContext) => Promise<void>) | undefined {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  return command && 'offline' in command ? command.offline : undefined;
}

/**
 * The flags of every command, as one set for the option parser (a flag means the same to every
 * command that takes it; one that another command takes is accepted and goes unread).
 */
export function commandFlags(): FlagOptions {
  const all: FlagOptions = {};
  for (const [name, command] of Object.entries(COMMANDS))
    for (const [flag, option] of Object.entries(command.flags ?? {})) {
      const known = all[flag];
      if (known && JSON.stringify(known) !== JSON.stringify(option))
        throw new Error(`dchub ${name}: --${flag} is declared otherwise by another command`);
      all[flag] = option;
    }
  return all;
}

/** The "Commands:" lines of `dchub --help`. */
export const commandsHelp = (): string =>
  Object.values(COMMANDS)
    .map((c) => c.usage)
    .join('');

/** Runs one command; the answer on stdout, what to know about it on stderr. */
export async function runCommand(command: string, rest: string[], ctx: CommandContext): Promise<number> {
  const c = commandNamed(command);
  await ('run' in c ? c.run(rest, ctx) : c.offline(rest, ctx));
  return EXIT.ok;
}
