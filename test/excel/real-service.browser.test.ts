import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExcelFixture, PROFILES, call, type Harness } from './fixture.js';

/**
 * Issue 10 as an Excel user meets it, against the sandbox's real-service profile (the real
 * service's shapes, teases, walls and quirks, from shared/reference/real-service-notes.md), every
 * formula through the strict runtime model: gated previews, the reader's warnings, stale answers,
 * MCP walls and partial lists, rate limits, gateway pages and redirects (the last three from the
 * sandbox's fault controls).
 */
const KEYS = { free: 'xl-real-free-00001', developer: 'xl-real-dev-000001', pro: 'xl-real-pro-000001' };
const Q = (iso: string, min: number | null, ttp: number | null) => [
  iso,
  min,
  ttp,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
];
const fmt = (n: number) => n.toLocaleString('en-US');
/** Data rows of a spilled table: not the header, not the closing rows (text in the first cell only). */
const dataRows = (m: any[][]) => m.slice(1).filter((r) => r.slice(1).some((v) => v !== ''));
const closing = (m: any[][]) =>
  m
    .slice(1)
    .filter((r) => r.slice(1).every((v) => v === ''))
    .map((r) => r[0] as string);

describe.runIf(PROFILES.includes('real'))('issue 10 in Excel against the real-service profile', () => {
  const fx = new ExcelFixture();
  beforeAll(() => fx.start({ seed: 'excel-real', keys: KEYS, profile: 'real' }));
  afterAll(() => fx.stop());
  beforeEach(async () => {
    await fx.control('/_sandbox/faults', undefined, 'DELETE');
    await fx.control('/_sandbox/limits', undefined, 'DELETE');
  });
  const keyless = async (p: string) => (await fetch(fx.sb.url + p)).json();
  const pages: Harness[] = [];
  const harness = async (key?: string) => {
    const h = await fx.harness(key);
    pages.push(h);
    return h;
  };
  afterAll(async () => {
    for (const h of pages) await h.page.close().catch(() => undefined);
  });

  describe('1. gated previews', () => {
    it('the 3-row queue tease below Developer: blanks where numbers are withheld, a closing row naming the fields, the total and the filters not applied', async () => {
      const served = await keyless('/api/v1/interconnection-queue/refined?iso=PJM,MISO&min_mw=200&max_ttp_months=36');
      const sentence =
        `Preview: 3 of ${fmt(served._total_available)} rows shown; withheld: capacity_mw, estimated_ttp_months, fiber_km, site_evaluation_handoff, total_queued_mw; ` +
        'your filters max_ttp_months, min_mw were not applied; the Developer plan opens the full answer: https://dchub.cloud/pricing.';
      for (const key of [undefined, KEYS.free]) {
        const m = (await call(await harness(key), 'QUEUE', Q('PJM,MISO', 200, 36))).value as any[][];
        expect(dataRows(m).map((r) => r[0])).toEqual(served.results.map((r: { queue_id: string }) => r.queue_id));
        for (const col of ['capacity_mw', 'estimated_ttp_months', 'fiber_km'])
          expect(dataRows(m).map((r) => r[m[0].indexOf(col)])).toEqual(['', '', '']);
        expect(closing(m)).toEqual([sentence]);
      }
      // A Developer key gets the full answer: numbers; its closing row is the ISO the cut excluded (the service's
      // words).
      const full = (await call(await harness(KEYS.developer), 'QUEUE', Q('PJM,MISO', 200, 36))).value as any[][];
      expect(dataRows(full).length).toBeGreaterThan(3);
      expect(
        dataRows(full).every(
          (r) => typeof r[full[0].indexOf('capacity_mw')] === 'number' && r[full[0].indexOf('capacity_mw')] >= 200,
        ),
      ).toBe(true);
      // (Past the call's limit, a first closing row says how many of how many: see strict.browser.test.ts.)
      const said = closing(full).filter((line) => !/ matching projects \(the call's limit\)$/.test(line));
      expect(said).toEqual([
        expect.stringMatching(
          /^excluded by max_ttp_months 36 \(average time to power longer\): PJM \([\d.]+ months\)$/,
        ),
      ]);
    });

    it('SITESCORE with a key below Pro: withheld scores are #N/A saying so, what is there answers, the verdict band too', async () => {
      const h = await harness(KEYS.free);
      const overall = await call(h, 'SITESCORE', [39.04, -77.49, 100, null]);
      expect(overall.error).toEqual({
        code: '#N/A',
        message:
          'DC Hub: overall_score is withheld in this preview (verdict: Excellent site); the Pro plan opens it: https://dchub.cloud/pricing',
      });
      expect((await call(h, 'SITESCORE', [39.04, -77.49, 100, 'scores.power_infrastructure'])).error?.message).toMatch(
        /^DC Hub: scores\.power_infrastructure is withheld in this preview/,
      );
      const full = await fx.api('/api/site-score?lat=39.04&lon=-77.49&capacity=100', KEYS.pro);
      expect((await call(h, 'SITESCORE', [39.04, -77.49, 100, 'nearby.substations_50km'])).value).toBe(
        full.nearby.substations_50km,
      );
      expect((await call(h, 'SITESCORE', [39.04, -77.49, 100, 'verdict_band'])).value).toBe(full.interpretation);
      expect(h.requests()).toBe(1); // one answer serves every cell
      // The Pro key: the number.
      expect((await call(await harness(KEYS.pro), 'SITESCORE', [39.04, -77.49, 100, null])).value).toBe(
        full.overall_score,
      );
    });

    it('SITESCORE keyless: two full scores a day, then the 402 paid preview as #N/A with the unlock link; a scored cell still answers', async () => {
      const h = await harness();
      const a = await call(h, 'SITESCORE', [39.04, -77.49, null, null]);
      const b = await call(h, 'SITESCORE', [32.78, -96.8, null, null]);
      expect([typeof a.value, typeof b.value]).toEqual(['number', 'number']);
      const third = await call(h, 'SITESCORE', [33.45, -112.07, null, null]);
      expect(third.error).toEqual({
        code: '#N/A',
        message:
          "DC Hub: Site scoring is a Pro feature. You used today's 2 free site scores; claim a key and upgrade to continue. (unlock: https://dchub.cloud/pricing)" +
          ' — then: Send the key as X-API-Key; the Pro plan opens site scoring.',
      });
      expect((await call(h, 'SITESCORE', [39.04, -77.49, null, null])).value).toBe(a.value);
    });

    it('DCPI below Developer: the verdict answers, a withheld score is #N/A naming it (never 0 or blank)', async () => {
      const h = await harness();
      const single = await keyless('/api/v1/dcpi/scores/dallas');
      expect(single.composite_score).toBeNull();
      expect((await call(h, 'DCPI', ['dallas', null])).value).toBe(single.verdict);
      expect((await call(h, 'DCPI', ['dallas', 'composite_score'])).error).toEqual({
        code: '#N/A',
        message: `DC Hub: composite_score is withheld in this preview (verdict: ${single.verdict}); the Developer plan opens it: https://dchub.cloud/pricing`,
      });
    });

    it('AICAPACITY keyless: bands as text, withheld numbers blank, the closing row says what is withheld', async () => {
      const served = await keyless('/api/v1/ai-capacity-index');
      const m = (await call(await harness(), 'AICAPACITY', [null])).value as any[][];
      expect(dataRows(m)).toHaveLength(served.markets.length);
      expect(
        dataRows(m).every((r) => /(MW|GW|TW)/.test(r[m[0].indexOf('ai_ready_mw')]) && r[m[0].indexOf('score')] === ''),
      ).toBe(true);
      expect(closing(m)).toEqual([
        `Preview: ${served.markets.length} of ${fmt(served._total_available)} rows shown; withheld: ${served._locked_fields.join(', ')}; the Developer plan opens the full answer: https://dchub.cloud/pricing.`,
      ]);
    });
  });

  describe('2. the reader’s warnings', () => {
    it('BRIEFS: the brief the service failed to build is left out and named in a closing row; the rest survive', async () => {
      const served = await keyless('/api/v1/market-brief/all');
      const failed = served.briefs.filter((b: { ok?: boolean }) => b.ok === false);
      expect(failed).toHaveLength(1);
      const m = (await call(await harness(), 'BRIEFS', [null, null, null])).value as any[][];
      expect(dataRows(m).map((r) => r[0])).toEqual(
        served.briefs.filter((b: { ok?: boolean }) => b.ok !== false).map((b: { slug: string }) => b.slug),
      );
      expect(closing(m)).toContain(
        `${failed[0].slug}: brief failed to build on the service (${failed[0].error}) (left out)`,
      );
      // Below Pro the briefs' Pro sections are withheld: the same closing rows say so.
      expect(closing(m).at(-1)).toMatch(/^Preview; sections withheld: .*; the Pro plan opens the full answer/);
    });
  });

  describe('3. stale answers, one rule', () => {
    it('a table served stale ends with "served from the cache (<age> old): <reason>"; a one-cell answer keeps its value', async () => {
      const h = await harness(KEYS.developer);
      const fresh = (await call(h, 'PIPELINE', [])).value as any[][];
      const price = (await call(h, 'PRICE', ['TX'])).value;
      const score = (await call(h, 'DCPI', ['dallas', 'composite_score'])).value;
      expect([typeof price, typeof score]).toEqual(['number', 'number']);
      // The service behind its CDN times out; a day later every cached answer has expired.
      await fx.control('/_sandbox/faults', [{ path_prefix: '/api/', kind: 'html_gateway', gateway_status: 524 }]);
      await h.page.clock.install({ time: Date.now() + 25 * 3600_000 });
      const stale = (await call(h, 'PIPELINE', [])).value as any[][];
      expect(stale.slice(0, fresh.length)).toEqual(fresh);
      expect(stale.slice(fresh.length).map((r) => r[0])).toEqual(['served from the cache (25 h old): service error']);
      expect((await call(h, 'PRICE', ['TX'])).value).toBe(price);
      expect((await call(h, 'DCPI', ['dallas', 'composite_score'])).value).toBe(score);
    });

    it('a derived answer says so in its closing row', async () => {
      const h = await fx.harness(KEYS.developer, undefined, { storage: { 'dchub.derive': 'widen' } });
      pages.push(h);
      await call(h, 'QUEUE', Q('SPP', 100, null));
      const before = h.requests();
      const narrow = (await call(h, 'QUEUE', Q('SPP', 400, 40))).value as any[][];
      expect(h.requests()).toBe(before);
      expect(narrow.at(-1)![0]).toMatch(
        /^answered locally from a cached wider answer \(GET \/api\/v1\/interconnection-queue\/refined\?iso=SPP&limit=1000, \d+ (s|min) old\)$/,
      );
      const asked = await fx.api(
        '/api/v1/interconnection-queue/refined?iso=SPP&min_mw=400&max_ttp_months=40',
        KEYS.developer,
      );
      expect(dataRows(narrow).map((r) => r[0])).toEqual(asked.results.map((r: { queue_id: string }) => r.queue_id));
    });
  });

  describe('4. MCP walls and partial lists in TOOL', () => {
    it('a plan wall is #N/A with the upgrade message, never a table of the wall’s fields', async () => {
      const r = await call(await harness(KEYS.free), 'TOOL', ['analyze_site', 'lat=39.04;lon=-77.49']);
      expect(r.value).toBeUndefined();
      expect(r.error).toEqual({
        code: '#N/A',
        message: expect.stringMatching(/^DC Hub: analyze_site: .*Pro.*https:\/\/dchub\.cloud\/pricing/),
      });
      expect(r.error!.message).not.toMatch(/for_your_human|_wall|show_to_user|\{/);
    });

    it('a partial list ("3 of 10") shows its rows and says so in its closing row', async () => {
      const m = (await call(await harness(), 'TOOL', ['get_news', 'limit=10'])).value as any[][];
      expect(dataRows(m)).toHaveLength(3);
      expect(closing(m)).toEqual([expect.stringMatching(/^Preview: 3 of 10 rows shown; .*X-API-Key/)]);
    });
  });

  describe('5. rate limits answer at once, with the reset time', () => {
    it('a 429 with a long Retry-After: #N/A at once with the reset time, one request sent, no wait', async () => {
      const h = await harness(KEYS.pro);
      await fx.control('/_sandbox/faults', [{ path_prefix: '/api/v1/stats', kind: 'rate_limit', retry_after: 3600 }]);
      const r = await call(h, 'STATS', []);
      expect(r.error).toEqual({
        code: '#N/A',
        message: expect.stringMatching(
          /^DC Hub: Too many requests\. Retry after 3600s; resets at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
        ),
      });
      expect(h.requests()).toBe(1); // not retried: a wait beyond a few seconds fails at once
    });

    it('the brief bulk daily cap (keyless: 3 a day): #N/A naming the cap and when it resets', async () => {
      const h = await harness();
      for (const offset of [0, 1, 2]) expect((await call(h, 'BRIEFS', [1, offset, null])).error).toBeUndefined();
      const capped = await call(h, 'BRIEFS', [1, 3, null]);
      expect(capped.error).toEqual({
        code: '#N/A',
        message: expect.stringMatching(/^DC Hub: .*resets at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      });
      expect(h.requests()).toBe(4);
    });
  });

  describe('6. gateway pages and redirects', () => {
    it('an HTML 502 or 524 page is one line of #N/A, never markup', async () => {
      const h = await harness(KEYS.pro);
      for (const [status, what] of [
        [502, 'bad gateway'],
        [524, 'the service took too long to answer'],
      ] as const) {
        await fx.control('/_sandbox/faults', [
          { path_prefix: '/api/v1/markets', kind: 'html_gateway', gateway_status: status },
        ]);
        const r = await call(h, 'MARKET', [status === 502 ? 'dallas' : 'phoenix', null]);
        expect(r.error).toEqual({
          code: '#N/A',
          message: `DC Hub: HTTP ${status} (${what}): the service's gateway answered an HTML error page; the service is down or overloaded; try again in a few minutes`,
        });
      }
    });

    it('a redirect to another origin is refused with a clear message; the key never reaches it', async () => {
      const other = await recorder();
      try {
        const h = await harness(KEYS.pro);
        await fx.control('/_sandbox/faults', [
          { path_prefix: '/api/v1/stats', kind: 'redirect', location: `${other.url}/`, redirect_status: 307 },
        ]);
        const r = await call(h, 'STATS', []);
        expect(r.error?.code).toBe('#N/A');
        expect(r.error!.message).toMatch(
          /^DC Hub: http:\/\/127\.0\.0\.1:\d+ answered with a redirect .*not repeated there/,
        );
        expect(r.error!.message).not.toContain(KEYS.pro);
        expect(other.seen.filter((s) => JSON.stringify(s).includes(KEYS.pro))).toEqual([]);
      } finally {
        await other.close();
      }
    });
  });
});

/** A loopback server that records every request it gets (method, path, headers) and answers 200 JSON. */
async function recorder(): Promise<{
  url: string;
  seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}> {
  const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers });
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': '*',
    });
    res.end('{"success":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}
