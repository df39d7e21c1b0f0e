import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { REPLAY_CASES } from './replay/cases/index.js';
import { startCounterpart, type Counterpart } from './replay/counterpart.js';
import { KEY } from './replay/shapes.js';
import type { Expect, ReplayCase } from './replay/types.js';

/**
 * The replay suite: recorded shapes of the real service (reference notes; generated values) served
 * by a loopback counterpart, each run through the `dchub` CLI. Every run checks the exit code, that
 * stderr says why in readable one-line messages with no stack trace, that the key appears in no
 * output and no cached file, and the data that should survive.
 *
 * Another counterpart: DCHUB_REPLAY_BASE_URL=http://127.0.0.1:8787 (e.g. the sandbox started with
 * DCHUB_SANDBOX_PROFILE=real and DCHUB_SANDBOX_KEYS=pro=$DCHUB_REPLAY_KEY) runs the cases that carry
 * `portable` expectations against it, with DCHUB_REPLAY_KEY as the key of keyed cases.
 */
const external = process.env.DCHUB_REPLAY_BASE_URL;
const externalKey = process.env.DCHUB_REPLAY_KEY ?? KEY;

let counterpart: Counterpart | undefined;
beforeAll(async () => {
  if (!external) counterpart = await startCounterpart(REPLAY_CASES);
});
afterAll(async () => {
  await counterpart?.close();
});

async function cli(argv: string[], env: Record<string, string>) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (s) => (out += s), err: (s) => (err += s), env });
  return { code, out, err };
}

/** What every run must satisfy, whatever the case. */
function checkCommon(r: { code: number; out: string; err: string }, key: string | undefined) {
  // No stack trace, no raw error dump, nothing but the CLI's own one-line messages.
  expect(r.err).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.err).not.toMatch(/\b(TypeError|ReferenceError|SyntaxError|HTTPError|undefined is not|\[object Object\])\b/);
  for (const line of r.err.split('\n').filter(Boolean)) expect(line).toMatch(/^dchub: \S/);
  if (r.code !== 0) expect(r.err.split('\n').filter(Boolean).length).toBeGreaterThan(0);
  if (key) expect(r.out + r.err).not.toContain(key);
}

function checkExpect(r: { code: number; out: string; err: string }, e: Expect) {
  expect(r.code, `exit code; stderr was:\n${r.err}`).toBe(e.code);
  for (const re of e.stderr ?? []) expect(r.err).toMatch(re);
  for (const re of e.notStderr ?? []) expect(r.err).not.toMatch(re);
  for (const s of e.stdout ?? []) typeof s === 'string' ? expect(r.out).toContain(s) : expect(r.out).toMatch(s);
  for (const s of e.notStdout ?? []) typeof s === 'string' ? expect(r.out).not.toContain(s) : expect(r.out).not.toMatch(s);
  if (e.json) e.json(JSON.parse(r.out));
}

async function filesContain(dir: string, needle: string): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const n of names) if ((await readFile(path.join(dir, n), 'utf8')).includes(needle)) return true;
  return false;
}

describe.skipIf(!!external)('replay: recorded shapes of the real service, through the CLI', () => {
  it('holds at least 50 cases', () => {
    expect(REPLAY_CASES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(REPLAY_CASES.map((c) => c.name)).size).toBe(REPLAY_CASES.length);
  });

  it.each(REPLAY_CASES.map((c, n) => [c.name, n, c] as [string, number, ReplayCase]))('%s', async (_name, n, c) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-replay-'));
    try {
      const env = { DCHUB_BASE_URL: counterpart!.baseUrl(n), DCHUB_CACHE_DIR: dir, ...(c.keyed ? { DCHUB_API_KEY: KEY } : {}) };
      for (const run of c.runs) {
        const r = await cli(run.argv, env);
        checkCommon(r, KEY);
        checkExpect(r, run.expect);
      }
      expect(await filesContain(dir, KEY)).toBe(false);
      if (c.otherOriginUntouched) expect(counterpart!.otherHits(n)).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const portable = REPLAY_CASES.filter((c) => c.portable);
describe.skipIf(!external)(`replay against ${external ?? 'another counterpart'} (portable expectations)`, () => {
  it.each(portable.map((c) => [c.name, c] as [string, ReplayCase]))('%s', async (_name, c) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-replay-'));
    try {
      const p = c.portable!;
      const env = { DCHUB_BASE_URL: external!, DCHUB_CACHE_DIR: dir, ...(c.keyed ? { DCHUB_API_KEY: externalKey } : {}) };
      const r = await cli(p.argv ?? c.runs[0].argv, env);
      checkCommon(r, c.keyed ? externalKey : undefined);
      checkExpect(r, p);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
