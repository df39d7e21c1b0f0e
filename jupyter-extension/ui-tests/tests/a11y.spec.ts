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
  await expect(view.locator('.jp-DCHub-count')).toBeVisible({ timeout: 30_000 });
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

test('axe: the result views 500 px wide (charts scroll or fit)', async ({ page }, testInfo) => {
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
  }
  await testInfo.attach('axe-counts', { body: JSON.stringify({ width: 500, counts }, null, 1) });
  console.log(`axe counts (500 px): ${JSON.stringify(counts)}`);
  expect(found).toEqual([]);
});
