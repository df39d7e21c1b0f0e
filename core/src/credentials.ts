import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkApiKey } from './api-key.js';

/**
 * Where `dchub login` keeps a key, for every host on the machine (the CLI, the Python API's engine,
 * the Jupyter relay): the operating system's credential store (Keychain, Credential Manager, Secret
 * Service — through @napi-rs/keyring) when it answers, else a file only the user can read (0600 in
 * a 0700 directory) in the user's config directory. One key per service, named by its origin.
 */

const SERVICE = 'dchub';

export interface StoredKeyPlace {
  /** `keyring` (the OS credential store) or `file`. */
  kind: 'keyring' | 'file';
  /** For people: "the system keyring" or the file's path. */
  where: string;
}

/**
 * The config directory's credentials file: $XDG_CONFIG_HOME/dchub (Linux), Application Support (macOS), %APPDATA%
 * (Windows).
 */
export function credentialsFile(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home = (platform === 'win32' ? env.USERPROFILE : env.HOME) || os.homedir(),
): string {
  if (platform === 'win32')
    return path.win32.join(
      env.APPDATA?.trim() || path.win32.join(home, 'AppData', 'Roaming'),
      'dchub',
      'credentials.json',
    );
  if (platform === 'darwin')
    return path.posix.join(home, 'Library', 'Application Support', 'dchub', 'credentials.json');
  return path.posix.join(env.XDG_CONFIG_HOME?.trim() || path.posix.join(home, '.config'), 'dchub', 'credentials.json');
}

/** The account a service's key is kept under: its origin (`https://dchub.cloud`). */
export const accountOf = (baseUrl: string): string => new URL(baseUrl).origin;

interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(p: string): void;
  deletePassword(): boolean | void;
}

/** The OS credential store's entry, or undefined where there is none (a server, CI, the Python wheel's Node). */
async function keyringEntry(account: string): Promise<KeyringEntry | undefined> {
  try {
    const { Entry } = (await import('@napi-rs/keyring')) as {
      Entry: new (service: string, account: string) => KeyringEntry;
    };
    return new Entry(SERVICE, account);
  } catch {
    return undefined;
  }
}

async function readFileKeys(file: string): Promise<Record<string, string>> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { keys?: Record<string, string> };
    return parsed.keys && typeof parsed.keys === 'object' ? parsed.keys : {};
  } catch {
    return {};
  }
}

async function writeFileKeys(file: string, keys: Record<string, string>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify({ keys }, null, 2), { mode: 0o600 });
  await rename(tmp, file);
}

/** The key `dchub login` stored for `baseUrl`, if any (checked by core's rule; a broken one is refused). */
export async function loadStoredKey(
  baseUrl: string,
  env: Record<string, string | undefined> = process.env,
): Promise<string | undefined> {
  const account = accountOf(baseUrl);
  try {
    const fromKeyring = (await keyringEntry(account))?.getPassword();
    if (fromKeyring) return checkApiKey(fromKeyring, 'stored key');
  } catch {
    /* no credential store answering: the file below */
  }
  const fromFile = (await readFileKeys(credentialsFile(env)))[account];
  return fromFile ? checkApiKey(fromFile, 'stored key') : undefined;
}

/** Stores a key for `baseUrl`: in the OS credential store when it answers, else in the 0600 file. */
export async function storeKey(
  baseUrl: string,
  key: string,
  env: Record<string, string | undefined> = process.env,
): Promise<StoredKeyPlace> {
  const account = accountOf(baseUrl);
  const checked = checkApiKey(key);
  if (!checked) throw new Error('no key was given');
  try {
    const entry = await keyringEntry(account);
    if (entry) {
      entry.setPassword(checked);
      if (entry.getPassword() === checked) return { kind: 'keyring', where: "the system's credential store" };
    }
  } catch {
    /* no credential store here: the file */
  }
  const file = credentialsFile(env);
  await writeFileKeys(file, { ...(await readFileKeys(file)), [account]: checked });
  return { kind: 'file', where: file };
}

/** Forgets the key of `baseUrl` wherever it was kept; whether there was one. */
export async function forgetKey(
  baseUrl: string,
  env: Record<string, string | undefined> = process.env,
): Promise<boolean> {
  const account = accountOf(baseUrl);
  let found = false;
  try {
    const entry = await keyringEntry(account);
    if (entry?.getPassword()) {
      entry.deletePassword();
      found = true;
    }
  } catch {
    /* nothing in a credential store */
  }
  const file = credentialsFile(env);
  const keys = await readFileKeys(file);
  if (keys[account] !== undefined) {
    delete keys[account];
    found = true;
    if (Object.keys(keys).length) await writeFileKeys(file, keys);
    else await rm(file, { force: true });
  }
  return found;
}
