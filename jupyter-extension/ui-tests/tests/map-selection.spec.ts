/**
 * One selection for the queue map and its grid: points clicked on the map select their rows (so
 * "Score selected site" and "Rank selected" work from the map), rows selected in the grid are drawn
 * highlighted on the map, a double click clears both. And *Insert in notebook* from the map adds the
 * chart line under the data line, which draws the same map in the real kernel.
 */
import { expect, galata, test, type IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';

import { activate, drawn, keep, selectGridRows, showChart, singleDocument } from './chart-view';
import { KEYED, QUEUE_PATH, SANDBOX } from './env';

test.use({
  viewport: { width: 1440, height: 960 },
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, briefsRefreshMinutes: 0 }
  }
});

const MIME = 'application/vnd.vegalite.v5+json';

async function searchPjm(page: IJupyterLabPageFixture, limit: number): Promise<Locator> {
  await singleDocument(page);
  await page.sidebar.openTab('dchub-panel');
  const panel = page.locator('#dchub-panel');
  await panel.locator('.lm-TabBar-tab', { hasText: 'Queue' }).click();
  await panel.locator('select[name="iso"]').selectOption('PJM');
  await panel.locator('input[name="limit"]').fill(String(limit));
  await panel.getByRole('button', { name: 'Search' }).click();
  const view = page.locator('.jp-DCHub-view-queue');
  await expect(view.locator('.jp-DCHub-count')).toHaveAttribute('data-count-returned', String(limit), {
    timeout: 60_000
  });
  return view;
}

/** A map point nothing covers: where to click it, and its queue id (from its accessible label). */
async function clickablePoint(view: Locator, skip: string[] = []): Promise<{ x: number; y: number; id: string }> {
  const found = await view.locator('.jp-DCHub-chart').evaluate((el: HTMLElement, skipIds: string[]) => {
    for (const p of el.querySelectorAll('g.dchub_points_marks > path')) {
      const r = p.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const id = /Queue ID: ([^;]+)/.exec(p.getAttribute('aria-label') ?? '')?.[1];
      if (id && !skipIds.includes(id) && r.width > 3 && document.elementFromPoint(x, y) === p) return { x, y, id };
    }
    return null;
  }, skip);
  expect(found).not.toBeNull();
  return found!;
}

/** Queue ids of the points drawn highlighted. */
function highlightedIds(view: Locator): Promise<string[]> {
  return view
    .locator('.jp-DCHub-chart')
    .evaluate((el: HTMLElement) =>
      [...el.querySelectorAll('g.dchub_points_marks > path[stroke-width="2"]')].map(
        (p) => /Queue ID: ([^;]+)/.exec(p.getAttribute('aria-label') ?? '')?.[1] ?? ''
      )
    );
}

test.describe('the queue map and its grid share one selection', () => {
  test('points picked on the map select their rows; score and rank work from there; rows selected in the grid light up on the map', async ({
    page,
    request
  }, testInfo) => {
    const view = await searchPjm(page, 60);
    const answer = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'PJM', limit: 60 } })
    ).json()) as {
      results: Array<{ queue_id: string; lat: number | null; lng: number | null }>;
    };
    const map = await showChart(view, 'map');
    expect(map.highlighted).toBe(0);
    const area = view.locator('.jp-DCHub-chart');
    const selection = view.locator('.jp-DCHub-selection');

    // A click selects the point's row.
    const first = await clickablePoint(view);
    await page.mouse.click(first.x, first.y);
    await expect(selection).toHaveAttribute('data-selected', '1');
    await expect(selection).toHaveAttribute('data-scorable', '1');
    await expect(area).toHaveAttribute('data-selected', '1');
    expect(await highlightedIds(view)).toEqual([first.id]);

    // A shift-click adds one.
    const second = await clickablePoint(view, [first.id]);
    await page.keyboard.down('Shift');
    await page.mouse.click(second.x, second.y);
    await page.keyboard.up('Shift');
    await expect(selection).toHaveAttribute('data-selected', '2');
    expect((await highlightedIds(view)).sort()).toEqual([first.id, second.id].sort());
    expect((await drawn(area)).points).toBe(map.points);
    await keep(page, testInfo, 'map-selection-picked.png', view);

    // "Rank selected" takes the two picked rows as candidates; the ranking names them.
    await view.getByRole('button', { name: 'Rank selected' }).click();
    const panel = page.locator('#dchub-panel');
    await expect(panel.locator('.jp-DCHub-rank-candidates')).toHaveAttribute('data-count', '2');
    await panel.locator('.jp-DCHub-rank-run').click();
    const ids = page.locator('.jp-DCHub-view-ranking .jp-DCHub-rank-count');
    await expect(ids).toHaveAttribute('data-count-ranked', '2');
    expect(((await ids.getAttribute('data-ids')) ?? '').split(' ').sort()).toEqual([first.id, second.id].sort());

    // "Score selected site" scores the first picked row (in the grid's order).
    await activate(page, 'dchub-view-queue-tab');
    await view.getByRole('button', { name: 'Score selected site' }).click();
    const source = panel.locator('.jp-DCHub-site-source');
    await expect(source).toBeVisible();
    const order = answer.results.map((r) => r.queue_id);
    const firstInGrid = [first.id, second.id].sort((a, b) => order.indexOf(a) - order.indexOf(b))[0];
    await expect(source).toContainText(firstInGrid);

    // Back in the table the two rows are selected; selecting rows 1–4 there lights up theirs on the map.
    await view.locator('.jp-DCHub-show-table').click();
    await expect(selection).toHaveAttribute('data-selected', '2');
    await selectGridRows(page, view.locator('.jp-DCHub-grid'), 1, 4);
    await expect(selection).toHaveAttribute('data-selected', '4');
    await showChart(view, 'map');
    // The map holds the four rows; it draws those with coordinates, highlighted.
    await expect(area).toHaveAttribute('data-selected', '4');
    const expected = answer.results.slice(0, 4).filter((r) => r.lat !== null && r.lng !== null);
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => highlightedIds(view).then((h) => h.sort())).toEqual(expected.map((r) => r.queue_id).sort());
    await keep(page, testInfo, 'map-selection-from-grid.png');

    // A double click on the map clears the selection on both sides.
    const chartBox = (await area.locator('svg').boundingBox())!;
    await page.mouse.dblclick(chartBox.x + 30, chartBox.y + chartBox.height - 60);
    await expect(area).toHaveAttribute('data-selected', '0');
    await expect(selection).toHaveAttribute('data-selected', '0');
  });
});

test.describe('Insert in notebook from a chart', () => {
  test('adds charts.queue_map(df) under the data line, and the real kernel draws the same map', async ({
    page
  }, testInfo) => {
    const view = await searchPjm(page, 100);
    const map = await showChart(view, 'map');
    await page.notebook.createNew('dchub-chart.ipynb');
    await activate(page, 'dchub-view-queue-tab');
    await view.locator('.jp-DCHub-insert').click();
    await expect.poll(() => page.notebook.getCellCount()).toBe(3);
    const code = (await page.notebook.getCellTextInput(2)) ?? '';
    expect(code.split('\n')[0]).toBe('from dchub import Client, charts');
    expect(code.trim().split('\n').slice(-2)).toEqual(['df = hub.queue(iso="PJM", limit=100)', 'charts.queue_map(df)']);

    await page.notebook.run();
    const output = page.locator('.jp-Notebook .jp-Cell').nth(2).locator('.jp-OutputArea-output');
    await expect(output.locator('.vega-embed')).toBeVisible({ timeout: 60_000 });
    // The renderer stores a PNG of what it drew beside the spec: the map was drawn, from core's spec of the same rows.
    const out = await expect
      .poll(
        () =>
          page.evaluate((mime) => {
            type Output = { data: Record<string, { usermeta?: { dchub?: { drawn: number; rows: number } } } | string> };
            const panel = (
              window as unknown as {
                jupyterapp: {
                  shell: {
                    currentWidget: {
                      content: {
                        model: {
                          cells: {
                            length: number;
                            get(i: number): { outputs?: { length: number; get(j: number): Output } };
                          };
                        };
                      };
                    };
                  };
                };
              }
            ).jupyterapp.shell.currentWidget;
            const cells = panel.content.model.cells;
            for (let i = 0; i < cells.length; i++) {
              const outputs = cells.get(i).outputs;
              for (let j = 0; j < (outputs?.length ?? 0); j++) {
                const data = outputs!.get(j).data;
                const spec = data[mime];
                if (spec && typeof spec === 'object')
                  return { ...spec.usermeta?.dchub, png: typeof data['image/png'] === 'string' };
              }
            }
            return null;
          }, MIME),
        { timeout: 60_000 }
      )
      .toMatchObject({ rows: map.rows, drawn: map.drawn, png: true });
    void out;
    await expect(
      page
        .locator('.jp-Notebook .jp-Cell')
        .nth(2)
        .locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    ).toHaveCount(0);
    await keep(page, testInfo, 'map-notebook.png');
  });
});
