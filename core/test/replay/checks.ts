import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { Expect } from './types.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `dchub` in-process with `env` as its whole environment. */
export async function cli(argv: string[], env: Record<string, string>): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (s) => (out += s), err: (s) => (err += s), env });
  return { code, out, err };
}

/** What every run must satisfy, whatever the case: one-line reasons, no stack trace, the key nowhere. */
export function checkCommon(r: CliRun, key: string | undefined): void {
  // No stack trace, no raw error dump, nothing but the CLI's own one-line messages.
  expect(r.err).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.err).not.toMatch(/\b(TypeError|ReferenceError|SyntaxError|HTTPError|undefined is not|\[object Object\])\b/);
  for (const line of r.err.split('\n').filter(Boolean)) expect(line).toMatch(/^dchub: \S/);
  if (r.code !== 0) expect(r.err.split('\n').filter(Boolean).length).toBeGreaterThan(0);
  if (key) expect(r.out + r.err).not.toContain(key);
}

/** The case's own expectations: exit code, stderr lines, the data that survives. */
export function checkExpect(r: CliRun, e: Expect): void {
  expect(r.code, `exit code; stderr was:\n${r.err}`).toBe(e.code);
  for (const re of e.stderr ?? []) expect(r.err).toMatch(re);
  for (const re of e.notStderr ?? []) expect(r.err).not.toMatch(re);
  for (const s of e.stdout ?? []) {
    if (typeof s === 'string') expect(r.out).toContain(s);
    else expect(r.out).toMatch(s);
  }
  for (const s of e.notStdout ?? []) {
    if (typeof s === 'string') expect(r.out).not.toContain(s);
    else expect(r.out).not.toMatch(s);
  }
  if (e.json) e.json(JSON.parse(r.out));
}

/** Whether any file of `dir` (the cache directory: answers and ledger) contains `needle`. */
export async function filesContain(dir: string, needle: string): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const n of names) if ((await readFile(path.join(dir, n), 'utf8')).includes(needle)) return true;
  return false;
}
