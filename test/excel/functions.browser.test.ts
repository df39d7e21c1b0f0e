import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_COLUMNS, fingerprint } from '@dchub/core';
import { ExcelFixture, PROFILES, call, range, type Harness } from './fixture.js';

const PRO_KEY = 'excel-pro-key-0001';

describe.each(PROFILES)('DCHUB custom functions in Chromium against the sandbox (%s profile)', (profile) => {
  const fx = new ExcelFixture();
  beforeAll(() => fx.start({ seed: 'excel-e2e', keys: { pro: PRO_KEY }, profile }));
  afterAll(() => fx.stop());
  const json = (p: string) => fx.api(p, PRO_KEY);

  let page: Harness;
  beforeAll(async () => {
    page = await fx.harness(PRO_KEY);
  });

  it('associates every DCHUB function named in functions.json', async () => {
    const ids = await page.page.evaluate(() => [...(window as any).__excel.registered.keys()].sort());
    const meta = await (await fetch(`${fx.webUrl}/functions.json`)).json();
    expect(ids).toEqual(meta.functions.map((f: { id: string }) => f.id).sort());
    expect(ids).toEqual(
      expect.arrayContaining(['SITESCORE', 'QUEUE', 'RANK', 'CHAIN', 'TOOL', 'NEWS', 'FUELMIX', 'QUOTA', 'CITATION']),
    );
  });

  it('loads the MCP client only when TOOL is first called', async () => {
    const h = await fx.harness(PRO_KEY);
    const scripts: string[] = [];
    h.page.on('request', (r) => r.url().endsWith('.js') && scripts.push(r.url()));
    expect(typeof (await call(h, 'SITESCORE', [39.04, -77.49, null, null])).value).toBe('number');
    const loaded = await h.page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(loaded.some((u) => /\/mcp\.[0-9a-f]+\.js$/.test(u))).toBe(false);
    expect((await call(h, 'TOOL', ['get_market_dcpi_rank', 'market_slug=dallas'])).value.length).toBeGreaterThan(1);
    expect(scripts.some((u) => /\/mcp\.[0-9a-f]+\.js$/.test(u))).toBe(true);
    await h.page.close();
  });

  it('TOOL types its arguments by the tool’s input schema (core): a union, an array of objects, text with commas, a range', async () => {
    const ai = (await call(page, 'TOOL', ['ai_capacity_index', 'horizon=60;limit=3'])).value as any[][];
    expect(ai.length).toBe(4);
    const sites = '[{"lat":39.04,"lon":-77.49},{"lat":32.9,"lon":-96.9}]';
    const cmp = await call(page, 'TOOL', [
      'compare_sites',
      range([
        ['sites', sites],
        ['capacity_mw', 100],
      ]),
    ]);
    expect(cmp.error).toBeUndefined();
    expect(JSON.stringify(cmp.value)).toMatch(/39\.04/);
    const isos = (await call(page, 'TOOL', ['compare_isos', 'isos=PJM,ERCOT'])).value as any[][];
    expect(JSON.stringify(isos)).toMatch(/ERCOT/);
    const ranked = (
      await call(page, 'TOOL', [
        'rank_markets',
        range([
          ['criteria', 'AI_READY'],
          ['limit', 2],
        ]),
      ])
    ).value as any[][];
    expect(ranked.length).toBe(3);
    const bad = await call(page, 'TOOL', ['ai_capacity_index', 'horizon=45']);
    expect(bad.error).toMatchObject({ code: '#VALUE!', message: 'args: horizon: must be 30, 60 or 90, got "45"' });
  });

  it('TOOL past an assumed MCP allowance: the call goes out and its table ends with the warning', async () => {
    // The MCP ledger as left by a day of calls: the assumed Free allowance (the service has not stated it) used up.
    const day = new Date().toISOString().slice(0, 10);
    const state = { day, used: 1000, limit: 1000, tier: 'free', known: false };
    const h = await fx.harness(PRO_KEY, undefined, {
      storage: { [`dchub:quota:k${fingerprint(PRO_KEY)}:mcp`]: JSON.stringify(state) },
    });
    const before = h.requests();
    const r = await call(h, 'TOOL', ['get_market_dcpi_rank', 'market_slug=phoenix']);
    expect(r.error).toBeUndefined();
    expect(h.requests()).toBeGreaterThan(before);
    const rows = r.value as any[][];
    expect(JSON.stringify(rows.slice(0, -1))).toMatch(/phoenix/i);
    expect(rows.at(-1)![0]).toMatch(
      /^more than the assumed 1000 calls a day \(free tier\) were used; .*calls continue$/,
    );
    // The same call again is answered from the cache, without the warning (it belonged to that call).
    const again = (await call(h, 'TOOL', ['get_market_dcpi_rank', 'market_slug=phoenix'])).value as any[][];
    expect(JSON.stringify(again)).not.toMatch(/assumed 1000/);
    await h.page.close();
  });

  it('SITESCORE returns the sandbox overall score', async () => {
    const expected = await json('/api/site-score?lat=39.04&lon=-77.49&capacity_mw=100');
    const r = await call(page, 'SITESCORE', [39.04, -77.49, 100, null]);
    expect(r.value).toBe(expected.overall_score);
    const noCapacity = await call(page, 'SITESCORE', [32.78, -96.8, null, null]);
    expect(noCapacity.value).toBe((await json('/api/site-score?lat=32.78&lon=-96.8')).overall_score);
  });

  it('QUEUE spills the survivors under a header row', async () => {
    const expected = await json('/api/v1/interconnection-queue/refined?iso=PJM,MISO&min_mw=200&max_ttp_months=36');
    const r = await call(page, 'QUEUE', ['PJM,MISO', 200, 36, null, null, null, null, null, null, null]);
    const m = r.value as any[][];
    expect(m[0]).toEqual([...QUEUE_COLUMNS]);
    // The header, the survivors, what part of the matching ones they are when the call's limit cut them (core's
    // limitedText), then the ISO the 36-month cut excluded, in closing rows.
    const cut = expected.count_total_matching > expected.count_returned;
    expect(m.length).toBe(expected.count_returned + 2 + (cut ? 1 : 0));
    if (cut)
      expect(m.at(-2)![0]).toBe(
        `${expected.count_returned} of ${expected.count_total_matching.toLocaleString('en-US')} matching projects (the call's limit)`,
      );
    expect(m.at(-1)![0]).toBe(
      `excluded by max_ttp_months 36 (average time to power longer): PJM (${expected.isos_excluded_by_ttp.PJM} months)`,
    );
    const col = (name: string) => m[0].indexOf(name);
    expected.results.forEach((row: any, i: number) => {
      expect(m[i + 1][col('queue_id')]).toBe(row.queue_id);
      expect(m[i + 1][col('capacity_mw')]).toBe(row.capacity_mw);
      expect(m[i + 1][col('lat')]).toBe(row.lat ?? '');
    });
    expect(m.flat().some((v) => v === null)).toBe(false);
  });

  it('QUEUE headers 0 and 2 and the time-to-power hint', async () => {
    const none = (await call(page, 'QUEUE', ['SPP', null, null, null, null, null, null, null, 3, 0])).value as any[][];
    // Three projects, then a closing row: the call's limit cut the matching ones.
    expect(none).toHaveLength(4);
    expect(typeof none[0][0]).toBe('string');
    expect(none[0][0]).toMatch(/^SPP-/);
    expect(none[3][0]).toMatch(/^3 of [\d,]+ matching projects \(the call's limit\)$/);
    const withSource = (await call(page, 'QUEUE', ['SPP', null, null, null, null, null, null, null, 3, 2]))
      .value as any[][];
    expect(withSource[0][0]).toMatch(/^Source: .*CC-BY-4\.0/);
    expect(withSource[1]).toEqual([...QUEUE_COLUMNS]);
    const cut = (await call(page, 'QUEUE', ['PJM', null, 30, null, null, null, null, null, null, null]))
      .value as any[][];
    // The header, the ISO the cut excluded, then the service's hint (in place of "no rows").
    expect(cut).toHaveLength(3);
    expect(cut[1][0]).toMatch(/^excluded by max_ttp_months 30 \(average time to power longer\): PJM/);
    expect(cut[2][0]).toMatch(/max_ttp_months to at least 50\.5/);
    expect(cut[2]).toHaveLength(QUEUE_COLUMNS.length);
  });

  it('bad arguments give #VALUE! naming the argument', async () => {
    const lat = await call(page, 'SITESCORE', [95, 10, null, null]);
    expect(lat.error).toMatchObject({ code: '#VALUE!' });
    expect(lat.error!.message).toMatch(/^lat: must be at most 90/);
    const minMw = await call(page, 'QUEUE', ['PJM', 'lots', null, null, null, null, null, null, null, null]);
    expect(minMw.error).toMatchObject({ code: '#VALUE!' });
    expect(minMw.error!.message).toMatch(/^min_mw:/);
    const iso = await call(page, 'QUEUE', ['PJX', null, null, null, null, null, null, null, null, null]);
    expect(iso.error!.message).toMatch(/^iso: unknown ISO "PJX"/);
    const headers = await call(page, 'QUEUE', ['PJM', null, null, null, null, null, null, null, null, 7]);
    expect(headers.error!.message).toMatch(/^headers:/);
  });

  it('service failures give #N/A with the reason', async () => {
    const badKey = await fx.harness('wrong-key-0123456789');
    const r = await call(badKey, 'SITESCORE', [39, -77, null, null]);
    expect(r.error).toMatchObject({ code: '#N/A' });
    expect(r.error!.message).toMatch(/Invalid or inactive API key/);
    expect(r.error!.message).not.toContain('wrong-key-0123456789');
    await badKey.page.close();

    const down = await fx.harness(undefined, 'http://127.0.0.1:9');
    const d = await call(down, 'QUEUE', ['PJM', null, null, null, null, null, null, null, null, null]);
    expect(d.error).toMatchObject({ code: '#N/A' });
    expect(d.error!.message).toMatch(/cannot reach/);
    await down.page.close();
  });
});
