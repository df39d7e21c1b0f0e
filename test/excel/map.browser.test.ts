import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExcelFixture, PROFILES } from './fixture.js';
import { officeStandIn, openPane, spillQueue } from './pane.js';

/**
 * The pane's Map tab in Chromium: core's queue and markets maps of the selected table, drawn by
 * Vega from map.js — loaded when the tab opens, never part of functions.js — under a
 * Content-Security-Policy without 'unsafe-eval' (Vega's expressions are interpreted). The spilled
 * QUEUE table is the QUEUE formula's own answer from the sandbox, computed in the pane's runtime
 * as Excel's shared runtime does. Screenshots: test-results/excel-map-*.png.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = path.join(root, 'excel-addin/dist');
const SHOTS = path.join(root, 'test-results');
/** Scripts from the add-in's origin and Office only: no 'unsafe-eval', no inline script. */
const CSP = "script-src 'self' https://appsforoffice.microsoft.com; object-src 'none'; base-uri 'none'";
const KEY = 'xl-map-ent-000001';
let officeJs = '';
let fx: ExcelFixture;

beforeAll(async () => {
  officeJs = await officeStandIn();
  mkdirSync(SHOTS, { recursive: true });
});

const status = (p: Page) => p.locator('#mapStatus').innerText();
/** The map's text (titles, legends, footer lines) as one line. */
const mapText = (p: Page) =>
  p.evaluate(() => [...document.querySelectorAll('#map svg text')].map((t) => t.textContent).join(' '));
/** Points the map drew: symbol marks of the chart (legend symbols are not marks). */
const pointsDrawn = (p: Page) => p.locator('#map svg g.mark-symbol.role-mark > path').count();

describe('the bundles', () => {
  it('functions.js carries no Vega; map.js does, with its own runtime', () => {
    const functions = readFileSync(path.join(dist, 'functions.js'), 'utf8');
    const map = readFileSync(path.join(dist, 'map.js'), 'utf8');
    expect(functions).not.toMatch(/vega|albersUsa|DchubMap/i);
    expect(map).toMatch(/albersUsa/);
    expect(map).toMatch(/DchubMap/);
    expect(readFileSync(path.join(dist, 'taskpane.html'), 'utf8')).not.toContain('map.js');
  });
});

describe.each(PROFILES)('the Map tab in Chromium (%s profile)', (profile) => {
  beforeAll(async () => {
    fx = await new ExcelFixture().start({ seed: 'excel-map', keys: { enterprise: KEY }, profile, csp: CSP });
  });
  afterAll(() => fx.stop());
  const shot = (name: string) => path.join(SHOTS, `excel-map-${name}${profile === 'real' ? '-real' : ''}.png`);

  it('draws the selected QUEUE spill: as many points as rows with coordinates, tooltips, the footer; map.js loaded only then', async () => {
    const { page } = await openPane(fx, officeJs);
    await page.evaluate((k) => localStorage.setItem('officeruntime:dchub.apiKey', k), KEY);
    await openPane(fx, officeJs, page);
    // The CSP is in force (an inline script does not run), so Vega can build no code from text and must interpret its
    // expressions.
    const inline = await page.evaluate(async () => {
      const el = document.createElement('script');
      el.textContent = 'window.__inlineRan = true';
      document.head.append(el);
      await new Promise((r) => setTimeout(r, 50));
      return (window as { __inlineRan?: boolean }).__inlineRan ?? false;
    });
    expect(inline).toBe(false);
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    const values = await spillQueue(page, '=DCHUB.QUEUE("PJM,ERCOT",,,,,,,,200,2)', [
      'PJM,ERCOT',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      200,
      2,
    ]);
    expect(values[1][0]).toBe('queue_id'); // headers 2: the source row, then the header
    const header = values[1] as string[];
    const body = values.slice(2).filter((r) => r.slice(1).some((v) => v !== ''));
    const placed = body.filter(
      (r) => typeof r[header.indexOf('lat')] === 'number' && typeof r[header.indexOf('lng')] === 'number',
    ).length;
    expect(body.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => s.endsWith('/map.js'))).toEqual([]);

    await page.locator('#tab-map').click();
    await expect.poll(() => status(page), { timeout: 30_000 }).toMatch(/^Drew \d+ of \d+ projects from Sheet1!B2#/);
    const [, drawn, of] = /^Drew (\d+) of (\d+)/.exec(await status(page))!.map(Number);
    expect(of).toBe(body.length);
    expect(drawn).toBe(placed);
    expect(drawn).toBeGreaterThan(0);
    expect(await page.locator('#map').getAttribute('data-drawn')).toBe(String(drawn));
    expect(await pointsDrawn(page)).toBe(drawn);
    expect(scripts.filter((s) => s.endsWith('/map.js'))).toHaveLength(1);
    const svgText = await mapText(page);
    expect(svgText).toContain('Interconnection-queue projects');
    expect(svgText).toMatch(/Data as of 20\d\d-\d\d-\d\d · Data: DC Hub/); // the footer: the as-of and citation of the source row
    if (placed < body.length)
      expect(svgText).toContain(`${body.length - placed} of ${body.length} projects have no coordinates (not drawn).`);
    expect(await page.locator('#map .vega-actions').count()).toBe(0); // no "Open in Vega Editor"
    // A tooltip names the project under the pointer.
    await page.locator('#map svg g.mark-symbol.role-mark > path').first().hover({ force: true });
    await expect
      .poll(() => page.locator('#vg-tooltip-element').innerText(), { timeout: 5_000 })
      .toMatch(/Project[\s\S]*Capacity \(MW\)/);
    await page.mouse.move(0, 0);
    // Laid out for the pane: nothing wider than it.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: shot('queue'), fullPage: true });
    await page.close();
  });

  it('Insert chart from a brief sheet; the map of its markets, placed by the DCPI scores list, coloured by verdict', async () => {
    const { page } = await openPane(fx, officeJs);
    await page.evaluate((k) => localStorage.setItem('officeruntime:dchub.apiKey', k), KEY);
    await openPane(fx, officeJs, page);
    await page.locator('#tab-briefs').click();
    await page.locator('#insertBriefs').click();
    await expect
      .poll(() => page.locator('#briefStatus').innerText(), { timeout: 30_000 })
      .toMatch(/^Inserted (\d+) briefs/);
    const briefs = Number(/^Inserted (\d+)/.exec(await page.locator('#briefStatus').innerText())![1]);
    await page.evaluate(() => {
      const w = window as any;
      w.__wb.selection = { sheet: w.__wb.sheet('DC Hub briefs'), r: 6, c: 2, h: 1, w: 1 };
    });
    // Insert chart (Briefs tab): a native leaderboard on its own sheet, bound with the series by columns.
    await page.locator('#insertChart').click();
    await expect
      .poll(() => page.locator('#chartStatus').innerText(), { timeout: 15_000 })
      .toBe(
        'Inserted the leaderboard chart (20 rows) on "DC Hub leaderboard" from DC Hub briefs!C7 (table DCHubBriefs).',
      );
    const chart = await page.evaluate(() => {
      const c = (window as any).__wb.charts[0];
      return { type: c.type, seriesBy: c.seriesBy, source: c.source, title: c.title, sheet: c.sheet.name };
    });
    expect([chart.sheet, chart.type, chart.seriesBy, chart.title]).toEqual([
      'DC Hub leaderboard',
      'BarClustered',
      'Columns',
      'DCPI leaderboard: top 20 markets',
    ]);
    expect(chart.source).toEqual({ r: 0, c: 0, h: 21, w: 2 }); // the header and 20 markets × market, composite score
    await page.screenshot({
      path: path.join(SHOTS, `excel-taskpane-chart${profile === 'real' ? '-real' : ''}.png`),
      fullPage: true,
    });
    await page.evaluate(() => {
      const w = window as any;
      w.__wb.selection = { sheet: w.__wb.sheet('DC Hub briefs'), r: 6, c: 2, h: 1, w: 1 };
      w.__wb.active = w.__wb.sheet('DC Hub briefs');
    });
    await page.locator('#tab-map').click();
    await expect.poll(() => status(page), { timeout: 30_000 }).toMatch(/^Drew \d+ of \d+ markets from DC Hub briefs!/);
    const text = await status(page);
    expect(text).toContain('Markets placed by the DCPI scores list.');
    const [, drawn, of] = /^Drew (\d+) of (\d+)/.exec(text)!.map(Number);
    expect(of).toBe(briefs);
    expect(drawn).toBeGreaterThan(briefs * 0.9); // every brief market is a scored market
    expect(await pointsDrawn(page)).toBe(drawn);
    const svg = await page.locator('#map svg').innerHTML();
    expect(svg).toMatch(/#009E73|rgb\(0, 158, 115\)/i); // BUILD in core's colour
    expect(await mapText(page)).toMatch(/Data as of [^·]+ · DC Hub Power Index \(DCPI\)/);
    await page.screenshot({ path: shot('markets'), fullPage: true });
    // A cell of a ranking: no map of it, said plainly.
    await page.evaluate(() => {
      const w = window as any;
      w.__wb.spill(
        'Sheet1',
        0,
        0,
        [
          ['rank', 'id', 'objective_score'],
          [1, 'a', 90],
        ],
        '=DCHUB.RANK(A1:D4,"x:1")',
      );
      w.__wb.selection = { sheet: w.__wb.sheet('Sheet1'), r: 1, c: 1, h: 1, w: 1 };
      w.__wb.active = w.__wb.sheet('Sheet1');
    });
    await page.locator('#drawMap').click();
    await expect.poll(() => status(page)).toMatch(/^The map draws a QUEUE table or a market table/);
    expect(await pointsDrawn(page)).toBe(drawn); // the last map stays
    await page.close();
  });
});
