import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_CASES } from './replay/cases/index.js';
import { checkCommon, checkExpect, cli, filesContain } from './replay/checks.js';
import { startCounterpart, type Counterpart } from './replay/counterpart.js';
import { KEY } from './replay/shapes.js';
import type { ReplayCase } from './replay/types.js';

/**
 * The replay suite: recorded shapes of the real service (reference notes; generated values) served
 * by a loopback counterpart, each run through the `dchub` CLI. Every run checks the exit code, that
 * stderr says why in readable one-line messages with no stack trace, that the key appears in no
 * output and no cached file, and the data that should survive. The cases' portable expectations
 * run against the sandbox's real profile in replay-portable.test.ts.
 */
let counterpart: Counterpart;
beforeAll(async () => {
  counterpart = await startCounterpart(REPLAY_CASES);
});
afterAll(async () => {
  await counterpart?.close();
});

describe('replay: recorded shapes of the real service, through the CLI', () => {
  it('holds at least 50 cases', () => {
    expect(REPLAY_CASES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(REPLAY_CASES.map((c) => c.name)).size).toBe(REPLAY_CASES.length);
  });

  it.each(REPLAY_CASES.map((c, n) => [c.name, n, c] as [string, number, ReplayCase]))('%s', async (_name, n, c) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-replay-'));
    try {
      const env = {
        DCHUB_BASE_URL: counterpart.baseUrl(n),
        DCHUB_CACHE_DIR: dir,
        ...(c.keyed ? { DCHUB_API_KEY: KEY } : {}),
      };
      for (const run of c.runs) {
        const r = await cli(run.argv, env);
        checkCommon(r, KEY);
        checkExpect(r, run.expect);
      }
      expect(await filesContain(dir, KEY)).toBe(false);
      if (c.otherOriginUntouched) expect(counterpart.otherHits(n)).toBe(0);
      if (c.requests !== undefined) expect(counterpart.hits(n), 'requests the counterpart received').toBe(c.requests);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
