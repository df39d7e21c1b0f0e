import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { EXIT } from '../src/cli/main.js';
import { cliRunner } from './support/cli.js';
import {
  BRIEF_CSV_COLUMNS,
  DchubClient,
  briefToRow,
  fetchBriefsAll,
  fetchBriefsAllPages,
  fetchBriefsCsv,
  fetchBriefsDiff,
  fetchMeta,
  marketBriefFields,
  type PagesProgress,
} from '../src/index.js';
import { SANDBOX_PROFILES, failedBriefSlugs as failedSlugs } from './support/profiles.js';

/** Every page of the bulk brief endpoints, against the sandbox with keys of each plan (DCHUB_SANDBOX_KEYS). */
describe.each(SANDBOX_PROFILES)('every page of the brief bulk endpoints (%s profile)', (profile) => {
  let sb: RunningSandbox;
  let dir: string;
  const ENT = 'pages-enterprise-key';
  const PRO = 'pages-pro-key';
  const FREE = 'pages-free-key';
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'pages',
      now: '2026-11-21T12:00:00Z',
      keys: `enterprise=${ENT},pro=${PRO},free=${FREE}`,
      controls: true,
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-pages-'));
  });
  afterAll(async () => {
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const client = (apiKey?: string, tier?: string) =>
    new DchubClient({ baseUrl: sb.url, apiKey, tier, now: () => sb.ctx.clock.nowMs() });
  /**
   * The real profile fails one of the five briefs every tier sees each day (notes §2.29): the reader
   * names it and leaves it out, and the paging still counts it as served. `kept(n)`: rows left of n.
   */
  const real = profile === 'real';
  const kept = (n: number) => (real ? n - 1 : n);

  describe('every page of /all.csv', () => {
    it('Enterprise: 232 rows, the header once, in two calls when the tier is not known yet (50, then 500)', async () => {
      const c = client(ENT);
      const progress: PagesProgress[] = [];
      const b = await fetchBriefsCsv(c, { onProgress: (p) => progress.push(p) });
      expect(b.rows).toHaveLength(kept(232));
      expect(new Set(b.rows.map((r) => r.market_slug)).size).toBe(kept(232));
      expect(failedSlugs(b)).toHaveLength(real ? 1 : 0);
      expect(c.requestsSent).toBe(2);
      const lines = b.text.split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(233);
      expect(lines.filter((l) => l.startsWith('market_slug,'))).toHaveLength(1);
      expect(lines[0]).toBe(BRIEF_CSV_COLUMNS.join(','));
      expect(b.filename).toMatch(/^dchub-market-briefs-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(progress).toEqual([
        { pagesDone: 1, pagesTotal: 2, rowsDone: 50, rowsTotal: 232 },
        { pagesDone: 2, pagesTotal: 2, rowsDone: 232, rowsTotal: 232 },
      ]);
      // The same rows as the service's own pages, in order.
      const direct = await (
        await fetch(`${sb.url}/api/v1/market-brief/all.csv?limit=500`, { headers: { 'X-API-Key': ENT } })
      ).text();
      expect(b.text).toBe(direct);
    });

    it('a tier the service confirmed (or the caller stated) reads 232 rows in one call', async () => {
      const c = client(ENT, 'enterprise');
      expect((await fetchBriefsCsv(c)).rows).toHaveLength(kept(232));
      expect(c.requestsSent).toBe(1);
    });

    it('Pro 15 rows and Free 5 rows, one call each', async () => {
      const pro = client(PRO);
      expect((await fetchBriefsCsv(pro)).rows).toHaveLength(kept(15));
      const free = client(FREE);
      const five = await fetchBriefsCsv(free);
      const failed = failedSlugs(five);
      expect(failed).toHaveLength(real ? 1 : 0);
      expect(five.rows.map((r) => r.market_slug)).toEqual(
        ['northern-virginia', 'dallas', 'phoenix', 'atlanta', 'chicago'].filter((s) => !failed.includes(s)),
      );
      expect(pro.requestsSent + free.requestsSent).toBe(2);
    });

    it('a key stated above its plan: the 400 on limit=500 is asked again at 50', async () => {
      const c = client(FREE, 'pro');
      expect((await fetchBriefsCsv(c)).rows).toHaveLength(kept(5));
      expect(c.requestsSent).toBe(2);
    });

    it('aborts between pages: no further call once the signal fires', async () => {
      const c = client(ENT);
      const ctl = new AbortController();
      await expect(fetchBriefsCsv(c, { signal: ctl.signal, onProgress: () => ctl.abort() })).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect(c.requestsSent).toBe(1);
    });
  });

  describe('every page of /all and /diff', () => {
    it('/all: 232 briefs in one answer, the same rows as the CSV; every page then answers marketBriefFields', async () => {
      const c = client(ENT);
      const progress: PagesProgress[] = [];
      const all = await fetchBriefsAllPages(c, { onProgress: (p) => progress.push(p) });
      expect(all).toMatchObject({ count: kept(232), total_available: 232, offset: 0, tier: 'ENTERPRISE' });
      expect(all.briefs).toHaveLength(kept(232));
      expect(failedSlugs(all)).toHaveLength(real ? 1 : 0);
      expect(progress.at(-1)).toEqual({ pagesDone: 2, pagesTotal: 2, rowsDone: 232, rowsTotal: 232 });
      const csv = await fetchBriefsCsv(client(ENT, 'enterprise'));
      expect(all.briefs.map(briefToRow).map(({ live_as_of: _l, ...r }) => r)).toEqual(
        csv.rows.map(({ live_as_of: _l, ...r }) => r),
      );
      expect(fetchMeta(all)).toMatchObject({ fromCache: false, stale: false });
      // Read again: every page from the cache, no call.
      const sent = c.requestsSent;
      const again = await fetchBriefsAllPages(c);
      expect(again.briefs).toHaveLength(kept(232));
      expect(c.requestsSent).toBe(sent);
      expect(fetchMeta(again)?.fromCache).toBe(true);
      // A market of the second page: its brief fields from the cached page, no call.
      const slug = all.briefs[200].slug;
      const f = await marketBriefFields(c, slug, 'hero.verdict');
      expect(f.hero?.verdict).toBe(all.briefs[200].hero.verdict);
      expect(fetchMeta(f)?.derivedFrom?.path).toBe('/api/v1/market-brief/all');
      expect(c.requestsSent).toBe(sent);
    });

    it('/all: the first page is the default request, the same cached answer as fetchBriefsAll()', async () => {
      const c = client(PRO, 'pro');
      const page = await fetchBriefsAll(c);
      const all = await fetchBriefsAllPages(c);
      expect(all.briefs.map((b) => b.slug)).toEqual(page.briefs.map((b) => b.slug));
      expect(c.requestsSent).toBe(1);
    });

    it('/diff: every changed brief over all pages (the panel read only the first)', async () => {
      const c = client(ENT);
      const d = await fetchBriefsDiff(c, '2020-01-01T00:00:00Z');
      expect(d.changed_total).toBe(232);
      expect(d.briefs).toHaveLength(kept(232));
      expect(d.count).toBe(kept(232));
      expect(c.requestsSent).toBe(2);
      // A narrow diff: one page; nothing recomputed since the newest computed_at.
      const newest = d.briefs.reduce((m, b) => ((b.hero.computed_at ?? '') > m ? (b.hero.computed_at ?? '') : m), '');
      const none = await fetchBriefsDiff(c, newest);
      expect(none.briefs).toHaveLength(0);
      expect(none.changed_total).toBe(0);
    });
  });

  describe('dchub briefs reads every page', () => {
    const cli = cliRunner(
      () => sb.url,
      () => dir,
    );
    // The key from a file: on the command line it would add a line to stderr (others can see it in ps).
    const dchub = async (...args: string[]) => {
      const file = path.join(dir, 'key.txt');
      await writeFile(file, ENT);
      return cli(
        ...args.flatMap((a, i) =>
          a === '--api-key' ? ['--api-key-file'] : args[i - 1] === '--api-key' ? [file] : [a],
        ),
      );
    };
    it('Enterprise: 232 rows as JSON, progress on stderr; --csv as served with the header once', async () => {
      const r = await dchub('briefs', '--format', 'json', '--api-key', ENT);
      expect(r.code).toBe(EXIT.ok);
      expect(JSON.parse(r.out)).toHaveLength(kept(232));
      expect(r.err).toMatch(/briefs page 2 of 2 \(232 of 232 rows\)/);
      expect(r.out + r.err).not.toContain(ENT);
      const csv = await dchub('briefs', '--csv', '--api-key', ENT);
      expect(csv.out.split('\r\n').filter(Boolean)).toHaveLength(233);
      // The ledger in the cache directory now knows the tier: one call, no progress line (the failed brief named).
      expect(csv.err).toMatch(
        real
          ? /^dchub: warning: \S+: brief failed to build on the service \(build_failed:KeyError\) \(left out\)\n$/
          : /^$/,
      );
    });
    it('--since over all pages; --limit/--offset still one page', async () => {
      const d = await dchub('briefs', '--since', '2020-01-01', '--format', 'json', '--api-key', ENT);
      expect(JSON.parse(d.out).briefs).toHaveLength(kept(232));
      expect(d.err).toMatch(/232 briefs recomputed since/);
      const one = await dchub('briefs', '--limit', '10', '--offset', '20', '--format', 'json', '--api-key', ENT);
      expect(JSON.parse(one.out)).toMatchObject({ count: 10, offset: 20 });
    });
  });
});
