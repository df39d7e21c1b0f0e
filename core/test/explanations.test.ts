import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { EXIT } from '../src/cli/main.js';
import { dchub, FORMATS, PRO } from './support/explain-cli.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

/**
 * Issue 20, "what the service explains must reach the user", in the CLI: every explanatory field of
 * the reference notes (docs/explanations.md) is one plain `dchub: …` line on stderr — in the table,
 * CSV and JSON formats alike, with rows or without, stdout staying the data — in the service's own
 * words; a refused key or plan at any step of an MCP session is exit 3. Fields the sandbox produces
 * are checked here against its own answer; the others against a loopback stand-in, in
 * explanations-standin.test.ts.
 */

describe.each(SANDBOX_PROFILES)('the service explains, the CLI says so (%s profile)', (profile) => {
  let sb: RunningSandbox;
  let dir: string;
  const real = profile === 'real';
  const run = (key: string | undefined, ...args: string[]) => dchub(sb.url, dir, key, ...args);
  const served = async (p: string, key?: string, body?: unknown) =>
    (
      await fetch(sb.url + p, {
        method: body ? 'POST' : 'GET',
        headers: { ...(key ? { 'X-API-Key': key } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).json();

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'explain',
      now: '2026-11-21T12:00:00Z',
      keys: `pro=${PRO}`,
      limits: false,
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-explain-'));
  });
  afterAll(async () => {
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(FORMATS)(
    'queue --format %s: the ISOs a time-to-power cut excluded with their waits, and the hint when nothing is left',
    async (format) => {
      const empty = await served('/api/v1/interconnection-queue/refined?iso=PJM&max_ttp_months=30', PRO);
      const hint = empty._error_mitigation.deterministic_hint as string;
      const cut = await run(PRO, 'queue', '--iso', 'PJM', '--max-ttp-months', '30', '--format', format);
      expect(cut.code).toBe(EXIT.ok);
      expect(cut.lines).toEqual([
        `dchub: excluded by max_ttp_months 30 (average time to power longer): PJM (${empty.isos_excluded_by_ttp.PJM} months)`,
        `dchub: ${hint}`,
      ]);
      if (format !== 'json') expect(cut.out).not.toContain(hint);
      // With rows: the exclusion still said, no hint (nothing to adjust).
      const some = await run(
        PRO,
        'queue',
        '--iso',
        'PJM,SPP',
        '--max-ttp-months',
        '30',
        '--limit',
        '5',
        '--format',
        format,
      );
      expect(some.code).toBe(EXIT.ok);
      expect(some.out).toMatch(/SPP-\d+/);
      expect(some.lines).toEqual([
        'dchub: excluded by max_ttp_months 30 (average time to power longer): PJM (50.5 months)',
      ]);
    },
  );

  it.each(FORMATS)(
    'rank --format %s: an objective not scored and why, candidates dropped by the constraints, the caveats',
    async (format) => {
      const csv = path.join(dir, 'candidates.csv');
      await writeFile(csv, 'id,lat,lon,score,km\na,39,-77,80,3\nb,40,-78,60,1\nc,41,-79,,2\n');
      const r = await run(
        PRO,
        'rank',
        csv,
        '--objectives',
        'score:+1,water_stress:-1',
        '--constraints',
        'km:0..2.5',
        '--mode',
        'percentile',
        '--format',
        format,
      );
      expect(r.code).toBe(EXIT.ok);
      const body = {
        candidates: [
          { id: 'a', lat: 39, lng: -77, score: 80, km: 3 },
          { id: 'b', lat: 40, lng: -78, score: 60, km: 1 },
          { id: 'c', lat: 41, lng: -79, km: 2 },
        ],
        objectives: { score: 1, water_stress: -1 },
        constraints: { km: { min: 0, max: 2.5 } },
        percentile: true,
      };
      const answer = await served('/api/v1/rank-sites', PRO, body);
      const unavailable = answer.objective_status.find((s: { status: string }) => s.status === 'unavailable');
      expect(r.lines).toContain(`dchub: objective water_stress unavailable: ${unavailable.reason}`);
      expect(r.lines).toContain('dchub: 1 candidate dropped by the constraints');
      expect(r.lines).toContain('dchub: scored without an objective they do not carry: c (score)');
      expect(answer.caveats.length).toBeGreaterThan(0);
      for (const c of answer.caveats) expect(r.lines).toContain(`dchub: ${c}`);
      if (format !== 'json') expect(r.out).not.toContain(answer.caveats[0]);
    },
  );

  it.each(FORMATS)(
    'chain --format %s: what the queue excluded, and when the cut leaves nothing the queue’s reason (exit 2), never a spent allowance',
    async (format) => {
      const excluded = /^dchub: excluded by max_ttp_months 30 \(average time to power longer\): PJM \([\d.]+ months\)$/;
      const some = await run(
        PRO,
        'chain',
        '--iso',
        'PJM,SPP',
        '--max-ttp-months',
        '30',
        '--objectives',
        'overall_score:1',
        '--max-sites',
        '2',
        '--format',
        format,
      );
      expect(some.code).toBe(EXIT.ok);
      expect(some.lines.filter((l) => excluded.test(l))).toHaveLength(1);
      const none = await run(
        PRO,
        'chain',
        '--iso',
        'PJM',
        '--max-ttp-months',
        '30',
        '--objectives',
        'overall_score:1',
        '--format',
        format,
      );
      expect(none.code).toBe(EXIT.usage);
      expect(none.out).toBe('');
      expect(none.lines).toContainEqual(
        expect.stringMatching(/^dchub: no queued project with coordinates survives these filters/),
      );
      expect(none.lines).toContainEqual(expect.stringMatching(excluded));
      expect(none.err).not.toMatch(/is spent|QuotaSpent/);
    },
  );

  it.each(FORMATS)(
    'brief --format %s: a market the service does not know — the markets it suggests, exit 2',
    async (format) => {
      const said = await served('/api/v1/market-brief/atlantis');
      const r = await run(undefined, 'brief', 'atlantis', '--format', format);
      expect(r.code).toBe(EXIT.usage);
      expect(r.out).toBe('');
      expect(r.lines).toEqual([`dchub: ${said.error}`, `dchub: markets to try: ${said.sample_markets.join(', ')}`]);
    },
  );

  it.each(FORMATS)(
    'tool --format %s: a tool refusing its arguments — the valid names, hint and example it gives, exit 2',
    async (format) => {
      const region = await run(PRO, 'tool', 'get_grid_intelligence', '--format', format);
      expect(region.code).toBe(EXIT.usage);
      expect(region.lines).toEqual([
        'dchub: get_grid_intelligence: region required',
        'dchub: hint: Pass region_id, iso, region or market.',
        expect.stringMatching(/^dchub: valid regions: ercot, pjm, [a-z-]+(, [a-z-]+)*$/),
        'dchub: example: region_id=ercot',
      ]);
      const isos = await run(PRO, 'tool', 'compare_isos', 'isos=PJM', '--format', format);
      expect(isos.code).toBe(EXIT.usage);
      expect(isos.lines).toEqual([
        'dchub: compare_isos: isos must name 2-4 ISO regions',
        'dchub: supported ISOs: PJM, ERCOT, CAISO, MISO, SPP, NYISO, ISONE',
        'dchub: example: PJM,ERCOT,CAISO',
      ]);
      const markets = await run(
        PRO,
        'tool',
        'get_market_intel',
        'market=dallas',
        'compare_to=atlantis',
        '--format',
        format,
      );
      expect(markets.code).toBe(EXIT.usage);
      expect(markets.lines[0]).toBe("dchub: get_market_intel: Unknown markets: ['atlantis']");
      expect(markets.lines[1]).toMatch(/^dchub: valid markets: ([a-z-]+, ){19}[a-z-]+$/);
    },
  );

  it.each(FORMATS)(
    '--format %s: an unknown key is exit 3 with the service’s words and where to get a key, over REST and at the MCP handshake',
    async (format) => {
      const said = await served('/api/v1/stats', 'explain-unknown-key-0001');
      const rest = await run('explain-unknown-key-0001', 'score', '39.04', '-77.49', '--format', format);
      expect(rest.code).toBe(EXIT.auth);
      expect(rest.lines).toEqual([`dchub: ${said.message}`, `dchub: how to get a key: ${said.auth_instructions}`]);
      const mcp = await run('explain-unknown-key-0001', 'tool', 'get_news', 'limit=2', '--format', format);
      expect(mcp.code).toBe(EXIT.auth);
      expect(mcp.lines).toEqual([`dchub: MCP: ${said.message}`, `dchub: how to get a key: ${said.auth_instructions}`]);
    },
  );

  it.each(FORMATS)(
    'tool --format %s: a list the server cut for a keyless caller says what it withholds, with its rows',
    async (format) => {
      const r = await run(undefined, 'tool', 'get_news', 'limit=10', '--format', format);
      expect(r.code).toBe(EXIT.ok);
      expect(r.out.length).toBeGreaterThan(0);
      expect(r.lines).toContainEqual(
        expect.stringMatching(new RegExp(`^dchub: Preview: ${real ? 3 : 2} of 10 rows shown; `)),
      );
    },
  );

  it.each(FORMATS)(
    'tool --format %s: a Pro tool keyless is the plan wall in the service’s words, exit 3, never its fields',
    async (format) => {
      const r = await run(undefined, 'tool', 'analyze_site', 'lat=39.04', 'lon=-77.49', '--format', format);
      expect(r.code).toBe(EXIT.auth);
      expect(r.out).toBe('');
      expect(r.lines[0]).toMatch(/^dchub: analyze_site: .*Pro/);
      expect(r.err).not.toMatch(/for_your_human|_wall|show_to_user|\{/);
    },
  );

  it.runIf(real).each(FORMATS)(
    'deals --format %s: a keyed call without a filter — the 400’s message, then its hint and docs, exit 2',
    async (format) => {
      const said = await served('/api/v1/transactions', PRO);
      const r = await run(PRO, 'deals', '--format', format);
      expect(r.code).toBe(EXIT.usage);
      expect(r.lines).toEqual([`dchub: request: ${said.message}`, `dchub: hint: ${said.hint} (docs: ${said.docs})`]);
    },
  );
});
