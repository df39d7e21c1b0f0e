/**
 * Issue 28: the panel for everyone. axe-core's WCAG 2.0/2.1 A and AA rules on every section of the
 * sidebar and on the result views in every mode (Table, Chart, Map), in JupyterLab's light and dark
 * themes: no violation. The counts are attached to the report (`axe-counts`) for the closing note.
 */
import { expect, galata, test, type IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';

import { axeViolations, describeViolations } from './axe';
import { showChart, singleDocument } from './chart-view';
import { SANDBOX } from './env';

test.use({
  viewport: { width: 1280, height: 900 },
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, briefsRefreshMinutes: 0 }
  }
});

const SECTIONS = ['Queue', 'Briefs', 'Site score', 'Rank', 'Tools', 'More'] as const;

/** Runs the queue search of the main flow and returns its view. */
async function searchQueue(page: IJupyterLabPageFixture): Promise<Locator> {
  await page.sidebar.openTab('dchub-panel');
  const panel = page.locator('#dchub-panel');
  await panel.locator('.lm-TabBar-tab', { hasText: 'Queue' }).click();
  await panel.locator('select[name="iso"]').selectOption(['PJM', 'ERCOT']);
  await panel.getByRole('button', { name: 'Search' }).click();
  const view = page.locator('.jp-DCHub-view-queue');
  await expect(view.locator('.jp-DCHub-count')).toBeVisible({ timeout: 90_000 });
  return view;
}

async function openDcpiScores(page: IJupyterLabPageFixture): Promise<Locator> {
  await page.evaluate(() =>
    (
      window as unknown as { jupyterapp: { commands: { execute(id: string, a: object): Promise<unknown> } } }
    ).jupyterapp.commands.execute('dchub:open-resource', { resource: 'dcpi-scores' })
  );
  const view = page.locator('.jp-DCHub-view-res-dcpi-scores');
  await expect(view.locator('.jp-DCHub-resource-count')).toHaveAttribute('data-count', /^[1-9]\d*$/, {
    timeout: 60_000
  });
  return view;
}

/** axe over `include`; the count recorded under `name`. */
async function check(
  page: IJupyterLabPageFixture,
  counts: Record<string, number>,
  name: string,
  include: string[]
): Promise<string[]> {
  const violations = await axeViolations(page, include);
  counts[name] = violations.reduce((n, v) => n + v.nodes, 0);
  return describeViolations(violations).map((line) => `${name}: ${line}`);
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe: every section and every result mode, ${theme} theme`, async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    if (theme === 'dark') await page.theme.setDarkTheme();
    await singleDocument(page);
    const counts: Record<string, number> = {};
    const found: string[] = [];
    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    for (const section of SECTIONS) {
      await panel.locator('.lm-TabBar-tab', { hasText: section }).click();
      found.push(...(await check(page, counts, `sidebar ${section}`, ['#dchub-panel'])));
    }
    const queue = await searchQueue(page);
    found.push(...(await check(page, counts, 'queue Table', ['.jp-DCHub-view-queue'])));
    await showChart(queue, 'chart', 'queue_mix');
    // The chart's data table, opened: the numbers behind it, in a table with its caption and column headers.
    await queue.locator('.jp-DCHub-chart-table summary').click();
    await expect(queue.locator('.jp-DCHub-chart-table table th').first()).toBeVisible();
    found.push(...(await check(page, counts, 'queue Chart', ['.jp-DCHub-view-queue'])));
    await showChart(queue, 'map', 'queue_map');
    found.push(...(await check(page, counts, 'queue Map', ['.jp-DCHub-view-queue'])));
    const dcpi = await openDcpiScores(page);
    found.push(...(await check(page, counts, 'DCPI Table', ['.jp-DCHub-view-res-dcpi-scores'])));
    await showChart(dcpi, 'chart', 'market_quadrant');
    found.push(...(await check(page, counts, 'DCPI Chart', ['.jp-DCHub-view-res-dcpi-scores'])));
    await showChart(dcpi, 'map', 'markets_map');
    found.push(...(await check(page, counts, 'DCPI Map', ['.jp-DCHub-view-res-dcpi-scores'])));
    await testInfo.attach('axe-counts', { body: JSON.stringify({ theme, counts }, null, 1) });
    console.log(`axe counts (${theme}): ${JSON.stringify(counts)}`);
    await page.screenshot({ path: testInfo.outputPath(`a11y-${theme}.png`) });
    expect(found).toEqual([]);
  });
}

/** Narrows the browser until the main area (a view in single-document mode) is `width` px wide. */
export async function mainAreaWidth(page: IJupyterLabPageFixture, width: number): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const now = await page.locator('#jp-main-dock-panel').evaluate((el) => el.getBoundingClientRect().width);
    if (Math.abs(now - width) < 2) return;
    const vp = page.viewportSize()!;
    await page.setViewportSize({ width: Math.round(vp.width + width - now), height: vp.height });
  }
}

/** Charts that draw a legend: it must be there, inside the view, at 500 px. */
const WITH_LEGEND = new Set(['queue_mix', 'queue_map', 'markets_map', 'market_quadrant']);

/** What does not fit the chart area: its drawing wider than the area, a legend missing or outside it. */
async function fits(view: Locator, chart: string): Promise<string[]> {
  const area = view.locator('.jp-DCHub-chart');
  const m = await area.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const svg = el.querySelector('svg')!.getBoundingClientRect();
    const legends = [...el.querySelectorAll('svg .role-legend')].map((g) => g.getBoundingClientRect());
    return {
      area: { left: box.left, right: box.right },
      svg: { left: svg.left, right: svg.right },
      legends: legends.map((l) => ({ left: l.left, right: l.right, width: l.width })),
      scrolls: el.scrollWidth > el.clientWidth + 1,
      scrollWidth: el.scrollWidth
    };
  });
  const out: string[] = [];
  if (m.scrolls || m.svg.right > m.area.right + 1)
    out.push(
      `${chart}: drawn wider than its ${Math.round(m.area.right - m.area.left)} px view ` +
        `(drawing ${Math.round(m.svg.left)}–${Math.round(m.svg.right)}, view ${Math.round(m.area.left)}–` +
        `${Math.round(m.area.right)}, scroll width ${m.scrollWidth})`
    );
  if (WITH_LEGEND.has(chart) && !m.legends.some((l) => l.width > 0)) out.push(`${chart}: no legend drawn`);
  for (const l of m.legends) if (l.right > m.area.right + 1) out.push(`${chart}: legend clipped at the right`);
  return out;
}

/** A CSS colour's relative luminance (0 black – 1 white), as the browser reads it. */
async function luminanceOf(page: IJupyterLabPageFixture, color: string): Promise<number> {
  return page.evaluate((c) => {
    const el = document.createElement('div');
    el.style.color = c;
    document.body.append(el);
    const [r, g, b] = (getComputedStyle(el).color.match(/[\d.]+/g) ?? []).map(Number);
    el.remove();
    const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  }, color);
}

test('charts follow the dark theme: background, titles and footer from JupyterLab', async ({ page }) => {
  test.setTimeout(120_000);
  await page.theme.setDarkTheme();
  await singleDocument(page);
  const queue = await searchQueue(page);
  await showChart(queue, 'chart', 'queue_mix');
  const svg = queue.locator('.jp-DCHub-chart svg').first();
  const colors = await svg.evaluate((el) => ({
    // Vega paints a chart's background as the SVG's own background colour.
    background: getComputedStyle(el).backgroundColor,
    title: el.querySelector('.role-title-text text, .role-title text')?.getAttribute('fill') ?? '',
    footer: [...el.querySelectorAll('.role-mark text')].map((t) => t.getAttribute('fill') ?? '').find(Boolean) ?? '',
    layout: getComputedStyle(document.body).getPropertyValue('--jp-layout-color0').trim()
  }));
  expect(colors.title).toMatch(/^(#|rgb)/);
  expect(colors.footer).toMatch(/^(#|rgb)/);
  const bg = await luminanceOf(page, colors.background);
  const title = await luminanceOf(page, colors.title);
  const footer = await luminanceOf(page, colors.footer);
  expect(bg).toBeLessThan(0.1);
  expect(await luminanceOf(page, colors.layout)).toBeCloseTo(bg, 3);
  // WCAG contrast of the text on the background: at least 4.5:1.
  expect((title + 0.05) / (bg + 0.05)).toBeGreaterThan(4.5);
  expect((footer + 0.05) / (bg + 0.05)).toBeGreaterThan(4.5);
});

test('axe and fit: the result views 500 px wide, every chart kind whole with its legend', async ({
  page
}, testInfo) => {
  test.setTimeout(180_000);
  await singleDocument(page);
  const counts: Record<string, number> = {};
  const found: string[] = [];
  const queue = await searchQueue(page);
  await mainAreaWidth(page, 500);
  for (const [mode, chart] of [
    ['chart', 'queue_mix'],
    ['chart', 'queue_time_to_power'],
    ['map', 'queue_map']
  ] as const) {
    await showChart(queue, mode, chart);
    found.push(...(await check(page, counts, `500px ${chart}`, ['.jp-DCHub-view-queue'])));
    found.push(...(await fits(queue, chart)));
  }
  const dcpi = await openDcpiScores(page);
  for (const [mode, chart] of [
    ['chart', 'leaderboard'],
    ['chart', 'market_quadrant'],
    ['chart', 'market_time_to_power'],
    ['map', 'markets_map']
  ] as const) {
    await showChart(dcpi, mode, chart);
    found.push(...(await check(page, counts, `500px ${chart}`, ['.jp-DCHub-view-res-dcpi-scores'])));
    found.push(...(await fits(dcpi, chart)));
  }
  await testInfo.attach('axe-counts', { body: JSON.stringify({ width: 500, counts }, null, 1) });
  console.log(`axe counts (500 px): ${JSON.stringify(counts)}`);
  expect(found).toEqual([]);
});
