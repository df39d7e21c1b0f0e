import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { EXIT, runCli } from '../src/cli/main.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('derive in the CLI (%s profile)', (profile) => {
  // A small plan that widens by default: Free; on the real profile, where a free key gets the 3-row
  // queue tease (which answers nothing but itself), the Developer plan, the smallest with full answers.
  const TIER = profile === 'real' ? 'developer' : 'free';
  const KEY = `derive-cli-${TIER}-key`;
  let sb: RunningSandbox;
  let dir: string;

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'derive-cli',
      now: '2026-11-21T12:00:00Z',
      keys: `${TIER}=${KEY}`,
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-derive-cli-'));
  });
  afterAll(async () => {
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function dchub(cacheDir: string, ...args: string[]) {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      out: (s) => (out += s),
      err: (s) => (err += s),
      env: { DCHUB_BASE_URL: sb.url, DCHUB_CACHE_DIR: cacheDir, DCHUB_API_KEY: KEY },
    });
    return { code, out, err };
  }

  describe('dchub: the derive setting', () => {
    it('a small plan widens, later questions are answered locally and say so; --no-derive asks the service', async () => {
      // The key's first call asks exactly: its answer tells the tier.
      const a = await dchub(dir, 'queue', '--iso', 'SPP', '--min-mw', '800', '--format', 'json');
      expect(a.code).toBe(EXIT.ok);
      expect(a.err).not.toMatch(/answered locally/);
      const b = await dchub(
        dir,
        'queue',
        '--iso',
        'SPP',
        '--min-mw',
        '300',
        '--max-ttp-months',
        '36',
        '--format',
        'json',
      );
      expect(b.err).toMatch(
        /answered locally from a cached wider answer \(GET \/api\/v1\/interconnection-queue\/refined\?iso=SPP&limit=1000, \d+ s old\); --no-derive asks the service/,
      );
      expect(JSON.parse(b.out).filters_applied).toMatchObject({ iso: 'SPP', min_mw: 300, max_ttp_months: 36 });
      const e = await dchub(dir, 'queue', '--iso', 'SPP', '--fuel-type', 'gas', '--format', 'json');
      expect(e.err).toMatch(/answered locally/);
      const quota = JSON.parse((await dchub(dir, 'quota', '--format', 'json')).out);
      expect(quota).toMatchObject({ tier: TIER, used: 2 });
      const c = await dchub(dir, 'queue', '--iso', 'SPP', '--min-mw', '400', '--no-derive', '--format', 'json');
      expect(c.err).not.toMatch(/answered locally/);
      expect(JSON.parse((await dchub(dir, 'quota', '--format', 'json')).out).used).toBe(3);
      expect(JSON.parse(c.out).filters_applied.min_mw).toBe(400);
    });
    it('--derive takes off, exact or widen (and DCHUB_DERIVE); anything else is a usage error', async () => {
      const bad = await dchub(dir, 'queue', '--iso', 'SPP', '--derive', 'sometimes');
      expect(bad.code).toBe(EXIT.usage);
      expect(bad.err).toMatch(/--derive must be off, exact or widen/);
      const used = async (d: string) => JSON.parse((await dchub(d, 'quota', '--format', 'json')).out).used as number;
      const other = await mkdtemp(path.join(os.tmpdir(), 'dchub-derive-cli-'));
      try {
        // exact: a looser question after a stricter one goes to the service; a stricter one after it does not.
        await dchub(other, 'queue', '--iso', 'NYISO', '--min-mw', '60', '--derive', 'exact');
        const before = await used(other);
        await dchub(other, 'queue', '--iso', 'NYISO', '--min-mw', '50', '--derive', 'exact');
        expect(await used(other)).toBe(before + 1);
        const d = await dchub(other, 'queue', '--iso', 'NYISO', '--min-mw', '70', '--derive', 'exact');
        expect(d.err).toMatch(
          /answered locally from a cached wider answer \(GET \/api\/v1\/interconnection-queue\/refined\?iso=NYISO&min_mw=50,/,
        );
        expect(await used(other)).toBe(before + 1);
        // DCHUB_DERIVE=off, like --no-derive.
        let err = '';
        await runCli(['queue', '--iso', 'NYISO', '--min-mw', '80'], {
          out: () => {},
          err: (s) => (err += s),
          env: { DCHUB_BASE_URL: sb.url, DCHUB_CACHE_DIR: other, DCHUB_API_KEY: KEY, DCHUB_DERIVE: 'off' },
        });
        expect(err).not.toMatch(/answered locally/);
        expect(await used(other)).toBe(before + 2);
      } finally {
        await rm(other, { recursive: true, force: true });
      }
    });
  });
});
