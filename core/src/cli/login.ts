import { readFile } from 'node:fs/promises';
import { checkApiKey } from '../api-key.js';
import { forgetKey, loadStoredKey, storeKey } from '../credentials.js';
import { readAll } from './command.js';
import { UsageError, type CliIO } from './report.js';

/**
 * How the CLI gets its key, and `dchub login` / `logout`. A key on the command line (`--api-key`) is
 * visible to every user of the machine (`ps`): it still works, with a warning; `--api-key-file`,
 * `DCHUB_API_KEY` and a stored key (`dchub login`) are the quiet ways.
 */

/** The key for this run: --api-key, then --api-key-file, then DCHUB_API_KEY, then the stored one. */
export async function resolveKey(
  flags: { apiKey?: string; apiKeyFile?: string },
  baseUrl: string,
  io: CliIO,
): Promise<string | undefined> {
  if (flags.apiKey !== undefined) {
    io.err(
      'dchub: --api-key is visible to other users of this machine (ps); prefer `dchub login`, --api-key-file or DCHUB_API_KEY\n',
    );
    return checkApiKey(flags.apiKey, '--api-key');
  }
  if (flags.apiKeyFile !== undefined) return checkApiKey(await readKeyFile(flags.apiKeyFile), '--api-key-file');
  if (io.env.DCHUB_API_KEY !== undefined) return checkApiKey(io.env.DCHUB_API_KEY, 'DCHUB_API_KEY');
  try {
    return await loadStoredKey(baseUrl, io.env);
  } catch {
    return undefined; // a base URL core refuses says so when the client is made
  }
}

async function readKeyFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    throw new UsageError(`--api-key-file: cannot read ${JSON.stringify(file)}`);
  }
}

/** Reads a key typed at a prompt without echoing it (a terminal), or all of standard input (a pipe). */
async function askKey(io: CliIO, stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (!stdin.isTTY) return readAll(stdin);
  io.err('DC Hub API key (not shown): ');
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const onData = (d: Buffer) => {
      for (const ch of d.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(typed);
        if (ch === '\u0003') return done(undefined); // Ctrl-C
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    const done = (value: string | undefined) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      io.err('\n');
      if (value === undefined) reject(new UsageError('login cancelled'));
      else resolve(value);
    };
    stdin.on('data', onData);
  });
}

/** `dchub login`: the key from --api-key-file, a prompt or standard input, checked, then stored. */
export async function login(baseUrl: string, flags: { apiKeyFile?: string }, io: CliIO): Promise<void> {
  const raw = flags.apiKeyFile !== undefined ? await readKeyFile(flags.apiKeyFile) : await askKey(io);
  const key = checkApiKey(raw);
  if (!key) throw new UsageError('login: no key was given');
  const place = await storeKey(baseUrl, key, io.env);
  io.out(
    `Stored the key for ${new URL(baseUrl).origin} in ${place.where}${place.kind === 'file' ? ' (readable by you only)' : ''}.\n`,
  );
}

/** `dchub logout`: forgets the stored key of the service. */
export async function logout(baseUrl: string, io: CliIO): Promise<void> {
  const found = await forgetKey(baseUrl, io.env);
  io.out(
    found
      ? `Forgot the stored key for ${new URL(baseUrl).origin}.\n`
      : `No key was stored for ${new URL(baseUrl).origin}.\n`,
  );
}
