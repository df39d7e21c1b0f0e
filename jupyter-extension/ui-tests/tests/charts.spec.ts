/**
 * Issue 18 in the panel: every view that has a chart switches between its table, its charts and its
 * map, drawn by JupyterLab's own Vega-Lite renderer. For each chart the marks in the SVG are counted:
 * as many as core says it drew (`usermeta.dchub.drawn`, in the area's data attributes), and for the
 * maps as many as the sandbox's rows with coordinates; nothing is logged while drawing. A screenshot
 * of each is kept (test-results/output-<profile>/charts-…). A gated preview's chart and a stale
 * answer's chart say so in their footer.
 */
import { expect, galata, test, type IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';

import { keep, selectGridRows, showChart, singleDocument, watchConsole } from './chart-view';
import { KEYED, PROFILE, QUEUE_PATH, SANDBOX } from './env';
import { ageStoredAnswers, dchub } from './shared-cache';

type Row = Record<string, unknown>;
const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const placed = (rows: Row[], lat: string, lon: string) => rows.filter((r) => num(r[lat]) && num(r[lon])).length;

test.use({
  viewport: { width: 1440, height: 960 },
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, briefsRefreshMinutes: 0 }
  }
});

async function openSection(page: IJupyterLabPageFixture, label: string): Promise<Locator> {
  await singleDocument(page);
  await page.sidebar.openTab('dchub-panel');
  const panel = page.locator('#dchub-panel');
  await panel.locator('.lm-TabBar-tab', { hasText: label }).click();
  return panel;
}

async function openResource(page: IJupyterLabPageFixture, resource: string): Promise<Locator> {
  await singleDocument(page);
  await page.evaluate(
    (r) =>
      (
        window as unknown as { jupyterapp: { commands: { execute(id: string, a: object): Promise<unknown> } } }
      ).jupyterapp.commands.execute('dchub:open-resource', { resource: r }),
    resource
  );
  const view = page.locator(`.jp-DCHub-view-res-${resource}`);
  await expect(view.locator('.jp-DCHub-resource-count')).toHaveAttribute('data-count', /^[1-9]\d*$/, {
    timeout: 60_000
  });
  return view;
}

test.describe('charts and maps of the views', () => {
  test('queue: the map draws every survivor with coordinates; queue mix and time to power draw their bars', async ({
    page,
    request
  }, testInfo) => {
    const log = watchConsole(page);
    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption(['PJM', 'ERCOT']);
    await panel.locator('input[name="max_ttp_months"]').fill('60');
    await panel.locator('input[name="limit"]').fill('1000');
    await panel.getByRole('button', { name: 'Search' }).click();
    const answer = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, {
        headers: KEYED,
        params: { iso: 'PJM,ERCOT', max_ttp_months: 60, limit: 1000 }
      })
    ).json()) as { results: Row[]; count_returned: number };
    const view = page.locator('.jp-DCHub-view-queue');
    await expect(view.locator('.jp-DCHub-count')).toHaveAttribute(
      'data-count-returned',
      String(answer.count_returned),
      { timeout: 60_000 }
    );
    log.since();

    const map = await showChart(view, 'map');
    expect(map.chart).toBe('queue_map');
    expect(map.rows).toBe(answer.count_returned);
    const withCoordinates = placed(answer.results, 'lat', 'lng');
    expect(withCoordinates).toBeGreaterThan(0);
    expect(map.points).toBe(withCoordinates);
    expect(map.drawn).toBe(withCoordinates);
    // The state outlines are drawn under the points (us-atlas, shipped with core, never fetched).
    expect(map.marks.shape).toBeGreaterThanOrEqual(49);
    expect(log.since()).toEqual([]);
    await expect(view.locator('.jp-DCHub-grid')).toBeHidden();
    await keep(page, testInfo, 'charts-queue-map.png');

    const mix = await showChart(view, 'chart', 'queue_mix');
    expect(mix.marks.rect).toBe(mix.drawn);
    expect(mix.drawn).toBeGreaterThan(2);
    expect(log.since()).toEqual([]);
    await keep(page, testInfo, 'charts-queue-mix.png', view);

    const ttp = await showChart(view, 'chart', 'queue_time_to_power');
    const isos = new Set(answer.results.filter((r) => num(r.estimated_ttp_months)).map((r) => r.iso));
    expect(ttp.drawn).toBe(isos.size);
    expect(ttp.marks.rect).toBe(isos.size);
    // The user's limit is the rule.
    expect(ttp.marks.rule).toBe(1);
    expect(log.since()).toEqual([]);
    await keep(page, testInfo, 'charts-queue-time-to-power.png');

    // The chart follows the filter of the table: the rows that mention "nuclear" (any column).
    await view.locator('.jp-DCHub-queue-filter').fill('nuclear');
    const text = [
      'queue_id',
      'project_name',
      'iso',
      'state',
      'county',
      'fuel_type',
      'fuel_class',
      'queue_status',
      'poi_name',
      'coordinate_precision'
    ];
    const nuclear = answer.results.filter((r) =>
      text.some((c) => typeof r[c] === 'string' && r[c].toLowerCase().includes('nuclear'))
    );
    expect(nuclear.length).toBeGreaterThan(0);
    await expect(view.locator('.jp-DCHub-chart')).toHaveAttribute('data-rows', String(nuclear.length));
    await expect(view.locator('.jp-DCHub-chart')).toHaveAttribute('data-state', 'drawn');

    // Back to the table: the grid again, the chart hidden.
    await view.locator('.jp-DCHub-show-table').click();
    await expect(view.locator('.jp-DCHub-grid')).toBeVisible();
    await expect(view.locator('.jp-DCHub-chart')).toBeHidden();
  });

  test('DCPI scores: the markets map, the leaderboard, the quadrant and time to power', async ({
    page,
    request
  }, testInfo) => {
    const log = watchConsole(page);
    const view = await openResource(page, 'dcpi-scores');
    const scores = (
      (await (await request.get(`${SANDBOX}/api/v1/dcpi/scores`, { headers: KEYED })).json()) as { scores: Row[] }
    ).scores;
    await expect(view.locator('.jp-DCHub-resource-count')).toHaveAttribute('data-count', String(scores.length));
    log.since();

    const map = await showChart(view, 'map');
    expect(map.chart).toBe('markets_map');
    expect(map.points).toBe(placed(scores, 'latitude', 'longitude'));
    expect(map.drawn).toBe(map.points);
    expect(log.since()).toEqual([]);
    await keep(page, testInfo, 'charts-dcpi-markets-map.png', view);

    const board = await showChart(view, 'chart', 'leaderboard');
    expect(board.drawn).toBe(Math.min(20, scores.filter((r) => num(r.composite_score)).length));
    expect(board.marks.rect).toBe(board.drawn);
    await keep(page, testInfo, 'charts-dcpi-leaderboard.png');

    const quadrant = await showChart(view, 'chart', 'market_quadrant');
    expect(quadrant.drawn).toBe(scores.filter((r) => num(r.excess_power_score) && num(r.constraint_score)).length);
    expect(quadrant.marks.symbol).toBe(quadrant.drawn);
    await keep(page, testInfo, 'charts-dcpi-quadrant.png', view);

    const ttp = await showChart(view, 'chart', 'market_time_to_power');
    expect(ttp.drawn).toBe(Math.min(25, scores.filter((r) => num(r.time_to_power_months)).length));
    expect(ttp.marks.rect).toBe(ttp.drawn);
    expect(log.since()).toEqual([]);
    await keep(page, testInfo, 'charts-dcpi-time-to-power.png');

    // The same switch as a command (palette, scripts): back to the map.
    const shown = await page.evaluate(() =>
      (
        window as unknown as { jupyterapp: { commands: { execute(id: string, a: object): Promise<unknown> } } }
      ).jupyterapp.commands.execute('dchub:show-as', {
        section: 'explore:dcpi-scores',
        mode: 'map'
      })
    );
    expect(shown).toEqual({ mode: 'map', chart: 'markets_map' });
    await expect(view.locator('.jp-DCHub-chart')).toHaveAttribute('data-chart', 'markets_map');
    await expect(view.locator('.jp-DCHub-show-map')).toHaveAttribute('aria-pressed', 'true');
  });

  test('DCPI leaderboard and briefs: their charts (no coordinates, so no map)', async ({ page, request }, testInfo) => {
    const log = watchConsole(page);
    const view = await openResource(page, 'dcpi-leaderboard');
    await expect(view.locator('.jp-DCHub-show-map')).toHaveCount(0);
    const board = await showChart(view, 'chart', 'leaderboard');
    const rows = (
      (await (await request.get(`${SANDBOX}/api/v1/dcpi/leaderboard`, { headers: KEYED })).json()) as {
        leaderboard: Row[];
      }
    ).leaderboard;
    expect(board.rows).toBe(rows.length);
    expect(board.marks.rect).toBe(board.drawn);
    expect(board.drawn).toBe(Math.min(20, rows.filter((r) => num(r.composite_score)).length));
    expect(log.since()).toEqual([]);
    await keep(page, testInfo, 'charts-leaderboard.png');

    await page.sidebar.openTab('dchub-panel');
    await page.locator('#dchub-panel').getByRole('button', { name: 'Briefs' }).click();
    const briefs = page.locator('.jp-DCHub-view-briefs');
    await expect(briefs.locator('.jp-DCHub-briefs-count')).toHaveAttribute('data-count', /^[1-9]\d*$/, {
      timeout: 60_000
    });
    const count = Number(await briefs.locator('.jp-DCHub-briefs-count').getAttribute('data-count'));
    const lb = await showChart(briefs, 'chart', 'leaderboard');
    expect(lb.rows).toBe(count);
    expect(lb.marks.rect).toBe(lb.drawn);
    expect(lb.drawn).toBeGreaterThan(0);
    const ttp = await showChart(briefs, 'chart', 'market_time_to_power');
    expect(ttp.marks.rect).toBe(ttp.drawn);
    expect(ttp.drawn).toBeGreaterThan(0);
    expect(log.since()).toEqual([]);
    await keep(page, testInfo, 'charts-briefs-time-to-power.png');
  });

  test('ranking: one stacked bar per ranked candidate; site score: one bar per component', async ({
    page
  }, testInfo) => {
    const log = watchConsole(page);
    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption('PJM');
    await panel.locator('input[name="geocoded_only"]').check();
    await panel.locator('input[name="limit"]').fill('10');
    await panel.getByRole('button', { name: 'Search' }).click();
    const queue = page.locator('.jp-DCHub-view-queue');
    await expect(queue.locator('.jp-DCHub-count')).toHaveAttribute('data-count-returned', '10', { timeout: 60_000 });
    await selectGridRows(page, queue.locator('.jp-DCHub-grid'), 1, 5);
    await expect(queue.locator('.jp-DCHub-selection')).toHaveAttribute('data-selected', '5');
    await queue.getByRole('button', { name: 'Rank selected' }).click();
    await panel.locator('.jp-DCHub-rank-run').click();
    const ranking = page.locator('.jp-DCHub-view-ranking');
    await expect(ranking.locator('.jp-DCHub-rank-count')).toHaveAttribute('data-count-returned', '5', {
      timeout: 60_000
    });
    log.since();
    const chart = await showChart(ranking, 'chart', 'ranking');
    expect(chart.drawn).toBe(5);
    expect(chart.barRows).toBe(5);
    // Each bar is split by the three default objectives (a candidate lacking one has fewer parts).
    expect(chart.marks.rect).toBeGreaterThanOrEqual(5);
    expect(chart.marks.rect).toBeLessThanOrEqual(15);
    expect(log.since()).toEqual([]);
    await keep(page, testInfo, 'charts-ranking.png');

    await panel.locator('.lm-TabBar-tab', { hasText: 'Site score' }).click();
    await panel.locator('input[name="lat"]').fill('39.04');
    await panel.locator('input[name="lon"]').fill('-77.49');
    await panel.locator('input[name="capacity_mw"]').fill('100');
    await panel.getByRole('button', { name: 'Score site' }).click();
    const site = panel.locator('.jp-DCHub-site');
    await expect(site.locator('.jp-DCHub-site-card')).toBeVisible({ timeout: 60_000 });
    const score = await showChart(site, 'chart', 'site_score');
    // A Pro key sees the five components; the overall score is the rule.
    expect(score.drawn).toBe(5);
    expect(score.marks.rect).toBe(5);
    expect(score.marks.rule).toBe(1);
    await expect(site.locator('.jp-DCHub-site-card')).toBeHidden();
    expect(log.since()).toEqual([]);
    await keep(page, testInfo, 'charts-site-score.png');
  });
});

test.describe("a chart says what its answer is: a keyless preview's", () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, connection: 'direct', briefsRefreshMinutes: 0 }
    }
  });
  test.beforeEach(async ({ request }) => {
    expect((await request.delete(`${SANDBOX}/_sandbox/limits`)).ok()).toBe(true);
  });

  test('the map of a gated preview says so in its footer, with the rows shown of how many', async ({
    page,
    request
  }, testInfo) => {
    const panel = await openSection(page, 'Queue');
    await expect(panel.locator('.jp-DCHub-connection')).toHaveAttribute('data-has-key', 'false');
    await panel.locator('select[name="iso"]').selectOption('PJM');
    await panel.getByRole('button', { name: 'Search' }).click();
    const body = (await (await request.get(`${SANDBOX}${QUEUE_PATH}`, { params: { iso: 'PJM' } })).json()) as {
      count_returned: number;
      _total_available: number;
    };
    const view = page.locator('.jp-DCHub-view-queue');
    await expect(view.locator('.jp-DCHub-queue-banner')).toHaveAttribute('data-preview', 'true', { timeout: 60_000 });
    const map = await showChart(view, 'map');
    expect(map.rows).toBe(body.count_returned);
    expect(map.texts).toContain(
      `Gated preview: ${body.count_returned} of ${body._total_available.toLocaleString('en-US')} rows shown.`
    );
    await keep(page, testInfo, 'charts-preview-map.png');
  });
});

test.describe("a chart says what its answer is: a stale answer's", () => {
  test.afterEach(async ({ request }) => {
    await request.delete(`${SANDBOX}/_sandbox/faults`);
  });

  test('the chart of a stale answer says its age and why, as the banner does', async ({ page, request }, testInfo) => {
    // The CLI cached the answer the relay will fall back on; it is aged three hours, then the service fails.
    expect((await dchub(['queue', '--iso', 'CAISO'])).code).toBe(0);
    expect(await ageStoredAnswers((key) => key.endsWith(`${QUEUE_PATH}?iso=CAISO`), 3 * 3_600_000)).toBe(1);
    expect(
      (
        await request.post(`${SANDBOX}/_sandbox/faults`, {
          data: [{ path_prefix: QUEUE_PATH, kind: 'status', status: 503 }]
        })
      ).ok()
    ).toBe(true);
    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption('CAISO');
    await panel.getByRole('button', { name: 'Search' }).click();
    const view = page.locator('.jp-DCHub-view-queue');
    await expect(view.locator('.jp-DCHub-queue-banner')).toHaveAttribute('data-stale', 'true', { timeout: 60_000 });
    const mix = await showChart(view, 'chart', 'queue_mix');
    expect(mix.texts.some((t) => /^served from the cache \(3 h( \d+ min)? old\): service error$/.test(t))).toBe(true);
    expect(PROFILE === 'real' || mix.drawn > 0).toBe(true);
    await keep(page, testInfo, 'charts-stale-queue-mix.png');
  });
});
