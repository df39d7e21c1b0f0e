import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_COLUMNS } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { launchChromium, serveStatic } from '../support/browser.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../excel-addin/dist');

let sb: RunningSandbox;
const PRO_KEY = 'excel-pro-key-0001';
let web: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'excel-e2e', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO_KEY}` });
  web = await serveStatic([here, dist]);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await sb?.close();
});

/** A fresh page running the built functions bundle, with the add-in settings in its storage. */
async function harness(settings: Record<string, string>): Promise<Page> {
  const page = await browser.newPage();
  const storage = encodeURIComponent(JSON.stringify(Object.entries(settings)));
  await page.goto(`${web.url}/harness.html?storage=${storage}`);
  await page.waitForFunction(() => Object.keys((window as any).__registered).length >= 2);
  return page;
}

type CallResult = { value?: any; error?: { code: string; message: string; isCFError: boolean } };
const call = (page: Page, id: string, args: unknown[]) =>
  page.evaluate(([i, a]) => (window as any).__call(i, a) as Promise<CallResult>, [id, args] as const);

const json = async (p: string) => (await fetch(sb.url + p, { headers: { 'X-API-Key': PRO_KEY } })).json();

describe('DCHUB custom functions in Chromium against the sandbox', () => {
  let page: Page;
  beforeAll(async () => {
    page = await harness({ 'dchub.baseUrl': sb.url, 'dchub.apiKey': PRO_KEY });
  });

  it('associates every DCHUB function named in functions.json', async () => {
    const ids = await page.evaluate(() => Object.keys((window as any).__registered).sort());
    const meta = await (await fetch(`${web.url}/functions.json`)).json();
    expect(ids).toEqual(meta.functions.map((f: { id: string }) => f.id).sort());
    expect(ids).toEqual(expect.arrayContaining(['SITESCORE', 'QUEUE', 'RANK', 'CHAIN', 'TOOL', 'NEWS', 'FUELMIX', 'QUOTA', 'CITATION']));
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
    expect(m.length).toBe(expected.count_returned + 1);
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
    expect(none).toHaveLength(3);
    expect(typeof none[0][0]).toBe('string');
    expect(none[0][0]).toMatch(/^SPP-/);
    const withSource = (await call(page, 'QUEUE', ['SPP', null, null, null, null, null, null, null, 3, 2])).value as any[][];
    expect(withSource[0][0]).toMatch(/^Source: .*CC-BY-4\.0/);
    expect(withSource[1]).toEqual([...QUEUE_COLUMNS]);
    const cut = (await call(page, 'QUEUE', ['PJM', null, 30, null, null, null, null, null, null, null])).value as any[][];
    expect(cut).toHaveLength(2);
    expect(cut[1][0]).toMatch(/max_ttp_months to at least 50\.5/);
    expect(cut[1]).toHaveLength(QUEUE_COLUMNS.length);
  });

  it('bad arguments give #VALUE! naming the argument', async () => {
    const lat = await call(page, 'SITESCORE', [95, 10, null, null]);
    expect(lat.error).toMatchObject({ code: '#VALUE!', isCFError: true });
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
    const badKey = await harness({ 'dchub.baseUrl': sb.url, 'dchub.apiKey': 'wrong-key-0123456789' });
    const r = await call(badKey, 'SITESCORE', [39, -77, null, null]);
    expect(r.error).toMatchObject({ code: '#N/A' });
    expect(r.error!.message).toMatch(/Invalid or inactive API key/);
    expect(r.error!.message).not.toContain('wrong-key-0123456789');
    await badKey.close();

    const down = await harness({ 'dchub.baseUrl': 'http://127.0.0.1:9' });
    const d = await call(down, 'QUEUE', ['PJM', null, null, null, null, null, null, null, null, null]);
    expect(d.error).toMatchObject({ code: '#N/A' });
    expect(d.error!.message).toMatch(/cannot reach/);
    await down.close();
  });
});
