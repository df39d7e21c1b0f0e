import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { REPLAY_CASES } from './replay/cases/index.js';
import { checkCommon, checkExpect, cli, filesContain } from './replay/checks.js';
import { startOtherOrigin, type OtherOrigin } from './replay/counterpart.js';
import type { ReplayCase, ReplayTier } from './replay/types.js';

/**
 * The replay cases' portable expectations, against counterparts that serve the real shapes by
 * themselves: in CI the sandbox's `real` profile (in-process, with its test controls for the HTML
 * gateway pages, redirects and long Retry-After), and, when DCHUB_REPLAY_BASE_URL is set, that
 * service too — DCHUB_REPLAY_KEY is its Pro key, DCHUB_REPLAY_KEYS (`free=…,enterprise=…`) keys of
 * other tiers; cases whose tier has no key, or that need fault controls it lacks, are skipped.
 * Each run checks the exit code, one-line reasons without a stack trace, the key in no output or
 * cached file, and the data that survives.
 */
interface Target {
  baseUrl: string;
  keys: Partial<Record<ReplayTier, string>>;
  /** The counterpart mounts /_sandbox/faults and /_sandbox/limits. */
  controls: boolean;
}

const PORTABLE = REPLAY_CASES.map((c, n) => ({ c, n })).filter(({ c }) => c.portable);
const NOW = '2026-11-21T12:00:00Z';
const TIERS = ['free', 'starter', 'developer', 'pro', 'enterprise'] as const;
/** Keys the in-process sandbox knows, one per tier (checked absent from every output and file). */
const SANDBOX_KEYS = Object.fromEntries(TIERS.map((t) => [t, `dch_live_portable${t}0123456789abcdef`])) as Record<
  (typeof TIERS)[number],
  string
>;

async function controls(
  t: Target,
  method: 'POST' | 'DELETE',
  what: 'faults' | 'limits',
  body?: unknown,
): Promise<void> {
  const r = await fetch(`${t.baseUrl}/_sandbox/${what}`, {
    method,
    ...(body ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  expect(r.status, `${method} /_sandbox/${what}: ${await r.text()}`).toBe(200);
}

/** `other:/` and `self:/` in a fault's location: the runner's other origin (per case), the counterpart itself. */
function placeFaults(faults: Array<Record<string, unknown>>, t: Target, other: OtherOrigin, n: number) {
  return faults.map((f) =>
    typeof f.location === 'string'
      ? { ...f, location: f.location.replace(/^other:/, `${other.url}/c/${n}`).replace(/^self:/, t.baseUrl) }
      : f,
  );
}

async function runPortable(t: Target, other: OtherOrigin, c: ReplayCase, n: number, ctx: TestContext): Promise<void> {
  const p = c.portable!;
  const tier = p.tier ?? (c.keyed ? 'pro' : 'anonymous');
  const key = tier === 'anonymous' ? undefined : t.keys[tier];
  if (tier !== 'anonymous' && !key) return ctx.skip(`no ${tier} key for this counterpart`);
  if (p.faults && !t.controls) return ctx.skip('needs the fault controls');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-portable-'));
  const env = { DCHUB_BASE_URL: t.baseUrl, DCHUB_CACHE_DIR: dir, ...(key ? { DCHUB_API_KEY: key } : {}) };
  const hitsBefore = other.hits(n);
  try {
    if (t.controls) {
      // Each case starts on a fresh day: no faults, no calls counted.
      await controls(t, 'DELETE', 'faults');
      await controls(t, 'DELETE', 'limits');
    }
    for (const argv of p.before ?? []) {
      const r = await cli(argv, env);
      checkCommon(r, key);
      expect(r.code, `before: dchub ${argv.join(' ')}; stderr was:\n${r.err}`).toBe(0);
    }
    if (p.faults) await controls(t, 'POST', 'faults', placeFaults(p.faults, t, other, n));
    const r = await cli(p.argv ?? c.runs[0].argv, env);
    checkCommon(r, key);
    checkExpect(r, p);
    if (key) expect(await filesContain(dir, key)).toBe(false);
    if (p.otherOriginUntouched) expect(other.hits(n) - hitsBefore, 'requests sent to the other origin').toBe(0);
  } finally {
    if (p.faults) await controls(t, 'DELETE', 'faults');
    await rm(dir, { recursive: true, force: true });
  }
}

let other: OtherOrigin;
beforeAll(async () => {
  other = await startOtherOrigin(REPLAY_CASES);
});
afterAll(() => other?.close());

describe('replay against the sandbox’s real profile (portable expectations)', () => {
  let sb: RunningSandbox;
  let target: Target;
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile: 'real',
      controls: true,
      now: NOW,
      seed: 'replay-portable',
      keys: TIERS.map((t) => `${t}=${SANDBOX_KEYS[t]}`).join(','),
    });
    target = { baseUrl: sb.url, keys: SANDBOX_KEYS, controls: true };
  });
  afterAll(() => sb?.close());

  it('covers the real profile’s previews, walls, failures and faults', () => {
    expect(PORTABLE.length).toBeGreaterThanOrEqual(30);
  });

  it.for(PORTABLE.map(({ c, n }) => [c.name, c, n] as [string, ReplayCase, number]))('%s', async ([, c, n], ctx) => {
    await runPortable(target, other, c, n, ctx);
  });
});

// Registered only when asked for, so that a run without it counts no skipped tests.
const external = process.env.DCHUB_REPLAY_BASE_URL;
if (external)
  describe(`replay against ${external} (portable expectations)`, () => {
    let target: Target;
    beforeAll(async () => {
      const keys: Target['keys'] = {};
      for (const pair of (process.env.DCHUB_REPLAY_KEYS ?? '').split(',').filter(Boolean)) {
        const [tier, k] = pair.split('=');
        if (k) keys[tier.trim() as ReplayTier] = k.trim();
      }
      if (process.env.DCHUB_REPLAY_KEY) keys.pro ??= process.env.DCHUB_REPLAY_KEY;
      const probe = await fetch(`${external}/_sandbox/faults`).catch(() => undefined);
      target = { baseUrl: external.replace(/\/+$/, ''), keys, controls: probe?.status === 200 };
    });

    it.for(PORTABLE.map(({ c, n }) => [c.name, c, n] as [string, ReplayCase, number]))('%s', async ([, c, n], ctx) => {
      await runPortable(target, other, c, n, ctx);
    });
  });
