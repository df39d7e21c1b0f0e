import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { EXIT, runCli } from '../src/cli/main.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

const PRO = 'cli-pro-key-secret';

describe.each(SANDBOX_PROFILES)('dchub CLI against the sandbox (%s profile)', (profile) => {
  let sb: RunningSandbox;
  let dir: string;
  const real = profile === 'real';

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'cli',
      now: '2026-11-21T12:00:00Z',
      keys: `pro=${PRO}`,
      controls: true,
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-cli-'));
  });
  afterAll(async () => {
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function dchub(...args: string[]) {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      out: (s) => (out += s),
      err: (s) => (err += s),
      env: { DCHUB_BASE_URL: sb.url, DCHUB_CACHE_DIR: dir },
    });
    return { code, out, err };
  }

  describe('dchub CLI', () => {
    it('queue as JSON equals the service answer; the key is never printed', async () => {
      const r = await dchub(
        'queue',
        '--iso',
        'ERCOT',
        '--min-mw',
        '100',
        '--limit',
        '5',
        '--format',
        'json',
        '--api-key',
        PRO,
      );
      expect(r.code).toBe(EXIT.ok);
      const body = JSON.parse(r.out);
      const direct = await (
        await fetch(`${sb.url}/api/v1/interconnection-queue/refined?iso=ERCOT&min_mw=100&limit=5`, {
          headers: { 'X-API-Key': PRO },
        })
      ).json();
      expect(body.results.map((x: { queue_id: string }) => x.queue_id)).toEqual(
        direct.results.map((x: { queue_id: string }) => x.queue_id),
      );
      expect(r.out + r.err).not.toContain(PRO);
    });
    it('score with negative longitude, as CSV', async () => {
      const r = await dchub('score', '39.04', '-77.49', '--capacity-mw', '100', '--format', 'csv', '--api-key', PRO);
      expect(r.code).toBe(EXIT.ok);
      expect(r.out.split('\r\n')[0]).toBe('field,value');
      expect(r.out).toMatch(/overall_score,\d/);
      // Sent under both spellings: the real service reads `capacity`, the spec `capacity_mw`.
      expect(r.out).toMatch(/^capacity_requested_mw,100\r$/m);
    });
    it('a gated preview exits 0 and says so on stderr', async () => {
      const r = await dchub('queue', '--iso', 'SPP');
      expect(r.code).toBe(EXIT.ok);
      expect(r.err).toMatch(/^dchub: Preview: \d+ of [\d,]+ rows shown; /m);
    });
    it('exit codes: 2 bad usage or 400, 3 auth, 4 spent quota, 5 network', async () => {
      expect((await dchub('queue', '--min-mw', 'lots')).code).toBe(EXIT.usage);
      expect((await dchub('nonsense')).code).toBe(EXIT.usage);
      expect((await dchub('score', '1', '1', '--api-key', 'wrong-key')).code).toBe(EXIT.auth);
      const down = await runCli(['score', '1', '1', '--no-cache'], {
        out: () => {},
        err: () => {},
        env: { DCHUB_BASE_URL: 'http://127.0.0.1:9', DCHUB_CACHE_DIR: dir },
      });
      expect(down).toBe(EXIT.failure);
      // Spend the keyless allowance (the ledger is kept in the cache directory), then one more.
      let code = 0;
      if (real) {
        // The real service scores two sites a day for a keyless caller, then answers 402 paid_preview (notes §2.15).
        const scores = [];
        for (let i = 0; i < 3; i++) scores.push(await dchub('score', String(10 + i), '10'));
        expect(scores.map((r) => r.code)).toEqual([EXIT.ok, EXIT.ok, EXIT.auth]);
        expect(scores[2].err).toMatch(/^dchub: Site scoring is [^\n]*\(unlock: https:\/\/\S+\)$/m);
        for (let i = 0; i < 12 && code === 0; i++) code = (await dchub('news', '--limit', String(1 + i))).code;
      } else {
        for (let i = 0; i < 12 && code === 0; i++) code = (await dchub('score', String(10 + i), '10')).code;
      }
      expect(code).toBe(EXIT.rateLimit);
    });
    it('quota and cache stats/clear', async () => {
      const q = await dchub('quota', '--format', 'json');
      expect(JSON.parse(q.out)).toMatchObject({ tier: 'anonymous', limit: 10 });
      const s = await dchub('cache', 'stats', '--format', 'json');
      expect(JSON.parse(s.out).answers).toBeGreaterThan(0);
      const c = await dchub('cache', 'clear');
      expect(c.out).toMatch(/cleared \d+ cached answers/);
      expect(JSON.parse((await dchub('cache', 'stats', '--format', 'json')).out).answers).toBe(0);
    });
  });

  describe('dchub CLI: every subcommand', () => {
    const pro = (...a: string[]) => dchub(...a, '--api-key', PRO);
    it('dcpi, markets, facilities, news, deals', async () => {
      const d = await pro('dcpi', 'dallas', '--format', 'json');
      expect(d.code).toBe(EXIT.ok);
      expect(JSON.parse(d.out).verdict).toMatch(/BUILD|CAUTION|AVOID/);
      expect((await pro('markets')).out).toMatch(/slug/);
      expect(JSON.parse((await pro('markets', 'dallas', '--format', 'json')).out).market.name).toBe('Dallas');
      expect(
        (await pro('facilities', 'dallas', '--limit', '3', '--format', 'csv')).out.trim().split('\r\n'),
      ).toHaveLength(4);
      expect(JSON.parse((await pro('news', '--limit', '2', '--format', 'json')).out).articles).toHaveLength(2);
      expect((await pro('deals', '--deal-type', 'bogus')).code).toBe(EXIT.usage);
      // A year, buyer or seller narrows the deals (the real service asks a keyed caller for one).
      const y = await pro('deals', '--year', '2025', '--buyer', 'a', '--format', 'json');
      expect(y.code).toBe(EXIT.ok);
      const deals = JSON.parse(y.out).transactions as Array<{ date: string; buyer: string }>;
      expect(deals.length).toBeGreaterThan(0);
      expect(deals.every((d) => d.date.startsWith('2025') && /a/i.test(d.buyer))).toBe(true);
      if (real) {
        const none = await pro('deals');
        expect(none.code).toBe(EXIT.usage);
        expect(none.err).toMatch(/^dchub: request: At least one filter is required: year, buyer, seller$/m);
      }
    });
    it('briefs --since lists only the recomputed markets', async () => {
      const r = await pro('briefs', '--since', '2026-11-01T00:00:00Z', '--format', 'csv');
      expect(r.code).toBe(EXIT.ok);
      expect(r.err).toMatch(/briefs recomputed since/);
      expect(r.out.split('\r\n')[0]).toMatch(/^market_slug,/);
    });
    it('parcel and rank from files', async () => {
      const geo = path.join(dir, 'p.geojson');
      await writeFile(
        geo,
        JSON.stringify({
          type: 'Polygon',
          coordinates: [
            [
              [-77.5, 39],
              [-77.49, 39],
              [-77.49, 39.01],
              [-77.5, 39.01],
              [-77.5, 39],
            ],
          ],
        }),
      );
      const p = await pro('parcel', geo, '--capacity-mw', '50', '--format', 'json');
      expect(JSON.parse(p.out).total_acres).toBeGreaterThan(200);
      const csv = path.join(dir, 'c.csv');
      await writeFile(csv, 'id,lat,lon,score,km\na,39,-77,80,3\nb,40,-78,60,1\n');
      const r = await pro('rank', csv, '--objectives', 'score:1,km:-1', '--format', 'csv');
      expect(r.code).toBe(EXIT.ok);
      expect(r.out.split('\r\n')[0]).toMatch(/^rank,id,objective_score,score,km,norm_score,norm_km/);
      expect((await pro('rank', csv, '--objectives', 'score')).code).toBe(EXIT.usage);
    });
    it('rank reads objectives and constraints with core’s one reader (>=/<= and min..max forms, errors naming the flag)', async () => {
      const csv = path.join(dir, 'c2.csv');
      await writeFile(csv, 'id,lat,lon,score,km\na,39,-77,80,3\nb,40,-78,60,1\nc,41,-79,70,2\n');
      const asText = await pro(
        'rank',
        csv,
        '--objectives',
        'score=+1;km=-1',
        '--constraints',
        'km<=2',
        '--top-k',
        '5',
        '--format',
        'json',
      );
      const asColon = await pro(
        'rank',
        csv,
        '--objectives',
        'score:1,km:-1',
        '--constraints',
        'km::2',
        '--top-k',
        '5',
        '--format',
        'json',
      );
      const ids = (r: { out: string }) => JSON.parse(r.out).results.map((x: { id: string }) => x.id);
      expect(ids(asText)).toEqual(ids(asColon));
      expect(ids(asText).sort()).toEqual(['b', 'c']);
      const bad = await pro('rank', csv, '--objectives', 'score:1', '--constraints', 'km:5..1');
      expect(bad.code).toBe(EXIT.usage);
      expect(bad.err).toMatch(/--constraints: km: min 5 is above max 1/);
      expect((await pro('rank', csv, '--objectives', 'score:1', '--mode', 'best')).err).toMatch(
        /--mode: must be relative, absolute or percentile/,
      );
    });
    it('chain shows its cost and progress on stderr', async () => {
      const r = await pro(
        'chain',
        '--iso',
        'ERCOT',
        '--min-mw',
        '100',
        '--objectives',
        'overall_score:1',
        '--max-sites',
        '3',
        '--format',
        'json',
      );
      expect(r.code).toBe(EXIT.ok);
      expect(r.err).toMatch(/costs at most 5 calls/);
      expect(r.err).toMatch(/\[score\] scoring/);
      expect(JSON.parse(r.out)._entity).toBe('ranked_sites');
    });
    it('tool calls an MCP tool', async () => {
      const r = await pro('tool', 'get_market_dcpi_rank', 'market_slug=dallas', '--format', 'json');
      expect(r.code).toBe(EXIT.ok);
      expect(JSON.stringify(JSON.parse(r.out))).toMatch(/BUILD|CAUTION|AVOID/);
      expect((await pro('tool', 'no_such_tool')).code).toBe(EXIT.usage);
    });
  });

  describe('dchub CLI: version, pipes, messages', () => {
    it('--version prints the package version', async () => {
      const r = await dchub('--version');
      expect(r.code).toBe(EXIT.ok);
      const { version } = JSON.parse(
        await (await import('node:fs/promises')).readFile(new URL('../package.json', import.meta.url), 'utf8'),
      );
      expect(r.out).toBe(`dchub ${version}\n`);
    });

    it('a broken pipe (dchub … | head -1) exits quietly, without a stack trace', async () => {
      const { spawn } = await import('node:child_process');
      const bin = new URL('../dist/cli/dchub.js', import.meta.url).pathname;
      const run = () =>
        new Promise<{ code: number | null; err: string; out: string }>((resolve) => {
          // The shell's `head -1` closes the pipe after one line while dchub is still writing.
          const child = spawn(
            'sh',
            [
              '-c',
              `node "${bin}" news --limit 200 --format json --api-key "${PRO}" | head -1; exit "\${PIPESTATUS:-0}"`,
            ],
            {
              env: { ...process.env, DCHUB_BASE_URL: sb.url, DCHUB_CACHE_DIR: dir },
            },
          );
          let err = '';
          let out = '';
          child.stderr.on('data', (c) => (err += c));
          child.stdout.on('data', (c) => (out += c));
          child.on('close', (code) => resolve({ code, err, out }));
        });
      const r = await run();
      expect(r.out).toBe('{\n');
      expect(r.err).not.toMatch(/EPIPE|Error|at .*\.js:\d+/);
    });

    it('a stale answer says its age and why on stderr, for briefs too', async () => {
      await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
      const first = await dchub('briefs', '--api-key', PRO);
      expect(first.code).toBe(EXIT.ok);
      await fetch(`${sb.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify([{ path_prefix: '/api/v1/market-brief', kind: 'status', status: 502 }]),
      });
      try {
        const again = await dchub('briefs', '--refresh', '--api-key', PRO);
        expect(again.code).toBe(EXIT.ok);
        expect(again.out).toBe(first.out);
        expect(again.err).toMatch(/^dchub: served from the cache \(\d+ s old\): service error$/m);
        const cached = await dchub('briefs', '--csv', '--api-key', PRO);
        expect(cached.err).toMatch(/^dchub: from the cache \(\d+ s old\)$/m);
        expect(cached.out.split('\n')[0]).toMatch(/^market_slug,/);
      } finally {
        await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
      }
    });
  });
});
