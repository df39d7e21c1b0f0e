/**
 * The server's shared cache directory from outside the browser: the `dchub` CLI run with the server's
 * service, key and directory (as a kernel or a shell on that machine would), and the stored answers
 * aged by hand. The relay answers the panel from the same directory and the same daily ledger.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { API_KEY, SANDBOX } from './env';

const CACHE_DIR = process.env.DCHUB_GALATA_CACHE_DIR ?? '';
const CLI = process.env.DCHUB_GALATA_CLI ?? '';

/** Runs `dchub <args> --format json` against the sandbox with the server's key and cache directory. */
export function dchub(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!CACHE_DIR || !CLI)
    throw new Error('DCHUB_GALATA_CACHE_DIR and DCHUB_GALATA_CLI are set by playwright.config.cjs');
  const env = { ...process.env, DCHUB_BASE_URL: SANDBOX, DCHUB_API_KEY: API_KEY, DCHUB_CACHE_DIR: CACHE_DIR };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args, '--format', 'json'],
      { env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr });
      }
    );
  });
}

/**
 * Makes the stored GET answers whose key `matches` `ageMs` old and expired (core's directory format:
 * one `{key, value}` file per key, the value a stored answer with `storedAt`/`expiresAt`; keys
 * `dchub:c:<caller>:GET <service> <path?query>`). Returns how many.
 */
export async function ageStoredAnswers(matches: (key: string) => boolean, ageMs: number): Promise<number> {
  let n = 0;
  for (const name of (await readdir(CACHE_DIR)).filter((f) => f.endsWith('.json'))) {
    const file = path.join(CACHE_DIR, name);
    const entry = JSON.parse(await readFile(file, 'utf8')) as { key: string; value: string };
    if (!/^dchub:c:[^:]+:GET /.test(entry.key) || !matches(entry.key)) continue;
    const answer = JSON.parse(entry.value) as { storedAt: number; expiresAt: number };
    answer.storedAt = Date.now() - ageMs;
    answer.expiresAt = Date.now() - 1000;
    await writeFile(file, JSON.stringify({ key: entry.key, value: JSON.stringify(answer) }));
    n++;
  }
  return n;
}
