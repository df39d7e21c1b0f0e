import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, describeViolations } from './axe.js';
import { ExcelFixture, PROFILES } from './fixture.js';
import { officeStandIn, openPane, spillQueue } from './pane.js';

/**
 * Issue 28 in the task pane: axe-core's WCAG 2.0/2.1 A and AA rules on every tab (the Map tab with a
 * drawn map), in Office's light and dark themes (the stand-in's `Office.context.officeTheme`): no
 * violation. Then the keyboard: Tab reaches every tab's controls in order, arrow keys move between
 * the tabs, Escape closes what opened. Screenshots: test-results/excel-a11y-*.png.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.resolve(here, '../../test-results');
const KEY = 'xl-a11y-ent-000001';
const TABS = ['account', 'formulas', 'briefs', 'chain', 'map', 'cache'] as const;
/** Office's dark theme as Office.context.officeTheme gives it (Excel on the web, dark mode). */
const DARK = {
  bodyBackgroundColor: '#292929',
  bodyForegroundColor: '#ffffff',
  controlBackgroundColor: '#3b3b3b',
  controlForegroundColor: '#ffffff',
};
let officeJs = '';
let fx: ExcelFixture;

beforeAll(async () => {
  officeJs = await officeStandIn();
  mkdirSync(SHOTS, { recursive: true });
});

/** The pane with the Enterprise key, in Office's `theme`. */
async function pane(theme: 'light' | 'dark'): Promise<Page> {
  const { page } = await openPane(fx, officeJs);
  await page.evaluate(
    ([k, t]) => {
      localStorage.setItem('officeruntime:dchub.apiKey', k);
      if (t) sessionStorage.setItem('officeTheme', JSON.stringify(t));
    },
    [KEY, theme === 'dark' ? DARK : null] as const,
  );
  await openPane(fx, officeJs, page);
  return page;
}

/** The axe lines of every tab (the map drawn from a spilled QUEUE table), and the counts per tab. */
async function everyTab(page: Page): Promise<{ lines: string[]; counts: Record<string, number> }> {
  const lines: string[] = [];
  const counts: Record<string, number> = {};
  await spillQueue(page, '=DCHUB.QUEUE("PJM,ERCOT",,,,,,,,200,2)', ['PJM,ERCOT', ...Array<null>(7).fill(null), 200, 2]);
  for (const tab of TABS) {
    await page.locator(`#tab-${tab}`).click();
    if (tab === 'map') {
      await expect.poll(() => page.locator('#mapStatus').innerText(), { timeout: 30_000 }).toMatch(/^Drew \d+/);
      await page.locator('#drawMap:not([disabled])').waitFor();
    }
    // Fluent's colour transitions (a button just enabled) run to their end: axe reads the colours shown at rest.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    const found = await axeViolations(page);
    counts[tab] = found.reduce((n, v) => n + v.nodes, 0);
    lines.push(...describeViolations(found).map((l) => `${tab}: ${l}`));
  }
  return { lines, counts };
}

describe.each(PROFILES)('the task pane for everyone (%s profile)', (profile) => {
  beforeAll(async () => {
    fx = await new ExcelFixture().start({ seed: 'excel-a11y', keys: { enterprise: KEY }, profile });
  });
  afterAll(() => fx.stop());
  const shot = (name: string) => path.join(SHOTS, `excel-a11y-${name}${profile === 'real' ? '-real' : ''}.png`);

  for (const theme of ['light', 'dark'] as const) {
    it(`axe finds no WCAG 2.1 A/AA violation on any tab (${theme} theme)`, async () => {
      const page = await pane(theme);
      const { lines, counts } = await everyTab(page);
      console.log(`excel pane axe counts (${profile}, ${theme}): ${JSON.stringify(counts)}`);
      await page.screenshot({ path: shot(`map-${theme}`), fullPage: true });
      expect(lines).toEqual([]);
      await page.close();
    });
  }

  it('the Map tab at 500 px: the map drawn whole, its legend below and inside the pane, in the dark theme', async () => {
    const page = await pane('dark');
    await page.setViewportSize({ width: 500, height: 900 });
    await spillQueue(page, '=DCHUB.QUEUE("PJM,ERCOT",,,,,,,,200,2)', [
      'PJM,ERCOT',
      ...Array<null>(7).fill(null),
      200,
      2,
    ]);
    await page.locator('#tab-map').click();
    await expect.poll(() => page.locator('#mapStatus').innerText(), { timeout: 30_000 }).toMatch(/^Drew \d+/);
    const m = await page.locator('#map').evaluate((el) => {
      const box = el.getBoundingClientRect();
      const svg = el.querySelector('svg')!;
      const legends = [...svg.querySelectorAll('.role-legend')].map((g) => g.getBoundingClientRect());
      return {
        right: box.right,
        svgRight: svg.getBoundingClientRect().right,
        scrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        legends: legends.filter((l) => l.width > 0).map((l) => l.right),
        // Vega paints a chart's background as the SVG's own background colour.
        background: getComputedStyle(svg).backgroundColor,
      };
    });
    expect(m.scrolls).toBe(false);
    expect(m.svgRight).toBeLessThanOrEqual(m.right + 1);
    expect(m.legends.length).toBeGreaterThan(0);
    for (const r of m.legends) expect(r).toBeLessThanOrEqual(m.right + 1);
    // Office's dark theme: the map's background is the pane's, not white.
    expect(m.background).toMatch(/^rgb\(/);
    const [r, g, b] = (m.background.match(/\d+/g) ?? []).map(Number);
    expect(Math.max(r, g, b)).toBeLessThan(80);
    await page.screenshot({ path: shot('map-500-dark'), fullPage: true });
    await page.close();
  });

  it('the keyboard: arrow keys move between the tabs, Tab goes in order, Escape closes an open section', async () => {
    const page = await pane('light');
    const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
    await page.locator('#tab-account').focus();
    const order: string[] = [];
    for (let i = 0; i < TABS.length - 1; i++) {
      await page.keyboard.press('ArrowRight');
      order.push(await focusedId());
    }
    expect(order).toEqual(TABS.slice(1).map((t) => `tab-${t}`));
    await expect.poll(() => page.locator('#tabs').getAttribute('activeid')).toBe('tab-cache');
    await page.keyboard.press('Home');
    await expect.poll(focusedId).toBe('tab-account');
    await page.keyboard.press('Enter');
    // Tab from the tabs into the Account panel: its controls in document order, the key field first.
    const reached: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const id = await focusedId();
      if (reached.includes(id)) break; // round the page and back: the order is known
      if (id) reached.push(id);
    }
    const inDom = await page.evaluate((ids) => {
      const all = [...document.querySelectorAll('#panel-account [id]')].map((el) => el.id);
      return ids.filter((id) => all.includes(id)).map((id) => all.indexOf(id));
    }, reached);
    expect(inDom.length).toBeGreaterThan(1);
    expect([...inDom].sort((a, b) => a - b)).toEqual(inDom);
    // The "Claim a free key" section opened, then closed by Escape with focus back on its heading.
    const item = page.locator('#claimSection');
    await item.evaluate((el) => ((el as HTMLElement & { expanded: boolean }).expanded = true));
    await page.locator('#claimName').waitFor({ state: 'visible' });
    await page.locator('#claimName').focus();
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('#claimSection'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => item.evaluate((el) => (el as HTMLElement & { expanded: boolean }).expanded)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('claimSection');
    await page.close();
  });
});
