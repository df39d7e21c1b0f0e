import { expect, test } from '@jupyterlab/galata';

import { API_KEY, KEYED, QUEUE_PATH, SANDBOX } from './env';
import { type QueueBody, fileText, openSection, panelSettings, showViewTab, today, view } from './panel';

/** The panel's result views (the queue, its export into files and notebooks, the ranking, MCP tool answers). */
test.use({ mockSettings: panelSettings() });

test.describe('DC Hub queue explorer', () => {
  test('searches with several predicates and gets full rows through the relay', async ({ page, request }, testInfo) => {
    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption(['PJM', 'ERCOT']);
    await panel.locator('input[name="min_mw"]').fill('50');
    await panel.locator('input[name="fuel_type"]').fill('gas');
    await panel.locator('input[name="geocoded_only"]').check();
    await panel.locator('input[name="limit"]').fill('100');
    await panel.getByRole('button', { name: 'Search' }).click();

    const res = await request.get(`${SANDBOX}${QUEUE_PATH}`, {
      headers: KEYED,
      params: { iso: 'PJM,ERCOT', min_mw: 50, fuel_type: 'gas', geocoded_only: 'true', limit: 100 }
    });
    const body = (await res.json()) as QueueBody;
    // More than the keyless 3-row preview: the relay's key was used.
    expect(body.count_returned).toBeGreaterThan(3);
    const count = view(page, 'queue').locator('.jp-DCHub-count');
    await expect(count).toHaveAttribute('data-count-returned', String(body.count_returned));
    await expect(count).toHaveAttribute('data-count-total', String(body.count_total_matching));

    await page.screenshot({ path: testInfo.outputPath('queue-view.png') });
    expect(await page.content()).not.toContain(API_KEY);
  });

  test('the time-to-power hint fills max_ttp_months and searches again', async ({ page, request }) => {
    const panel = await openSection(page, 'Queue');
    await panel.locator('input[name="max_ttp_months"]').fill('10');
    await panel.getByRole('button', { name: 'Search' }).click();

    const first = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { max_ttp_months: 10 } })
    ).json()) as QueueBody;
    const suggested = first._error_mitigation?.suggested_params?.max_ttp_months;
    expect(suggested).toBeGreaterThan(10);

    const apply = view(page, 'queue').locator('.jp-DCHub-hint-apply');
    await expect(apply).toBeVisible();
    await expect(apply).toHaveAttribute('data-value', String(suggested));
    await apply.click();
    await expect(panel.locator('input[name="max_ttp_months"]')).toHaveValue(String(suggested));

    const second = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { max_ttp_months: suggested! } })
    ).json()) as QueueBody;
    expect(second.count_returned).toBeGreaterThan(0);
    await expect(view(page, 'queue').locator('.jp-DCHub-count')).toHaveAttribute(
      'data-count-returned',
      String(second.count_returned)
    );
  });

  test('a selected row is handed to site scoring', async ({ page, request }) => {
    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption('PJM');
    await panel.locator('input[name="geocoded_only"]').check();
    await panel.getByRole('button', { name: 'Search' }).click();
    const results = view(page, 'queue');
    await expect(results.locator('.jp-DCHub-count')).toBeVisible();

    const body = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'PJM', geocoded_only: 'true' } })
    ).json()) as QueueBody;
    const handoff = body.results[0].site_evaluation_handoff!.analyze_site;

    // Click the first body row of the canvas grid (below the column header, right of the row numbers).
    const grid = results.locator('.jp-DCHub-grid');
    await grid.scrollIntoViewIfNeeded();
    const box = (await grid.boundingBox())!;
    await page.mouse.click(box.x + 120, box.y + 24 + 11);
    await expect(results.locator('.jp-DCHub-selection')).toHaveAttribute('data-scorable', '1');
    await results.getByRole('button', { name: 'Score selected site' }).click();

    const card = panel.locator('.jp-DCHub-site-card');
    await expect(card).toBeVisible();
    await expect(panel.locator('input[name="lat"]')).toHaveValue(String(handoff.lat));
    await expect(panel.locator('input[name="lon"]')).toHaveValue(String(handoff.lon));
    const params: Record<string, number> = { lat: handoff.lat, lon: handoff.lon };
    if (handoff.capacity_mw) params.capacity_mw = handoff.capacity_mw;
    const score = (await (await request.get(`${SANDBOX}/api/site-score`, { headers: KEYED, params })).json()) as {
      overall_score: number;
      interpretation: string;
    };
    await expect(card).toHaveAttribute('data-score', String(score.overall_score));
    await expect(card.locator('.jp-DCHub-site-interpretation')).toHaveText(score.interpretation);
  });
});

test.describe('DC Hub into files and notebooks', () => {
  test('exports the queue as CSV and loads it in a notebook with the real kernel', async ({
    page,
    request,
    tmpPath
  }, testInfo) => {
    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption('ERCOT');
    await panel.locator('input[name="min_mw"]').fill('100');
    await panel.getByRole('button', { name: 'Search' }).click();
    const body = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'ERCOT', min_mw: 100 } })
    ).json()) as QueueBody;
    await expect(view(page, 'queue').locator('.jp-DCHub-count')).toHaveAttribute(
      'data-count-returned',
      String(body.count_returned)
    );

    // Export CSV: into the file browser's folder (the test's tmpPath), citation beside it.
    const csvName = `dchub-queue-${today()}.csv`;
    await view(page, 'queue').locator('.jp-DCHub-export').click();
    await expect.poll(() => page.contents.fileExists(`${tmpPath}/${csvName}`)).toBe(true);
    await expect.poll(() => page.contents.fileExists(`${tmpPath}/dchub-queue-${today()}.citation.txt`)).toBe(true);
    const csv = await fileText(request, `${tmpPath}/${csvName}`);
    expect(csv.trimEnd().split('\r\n')).toHaveLength(body.count_returned + 1);
    expect(csv).not.toContain(API_KEY);
    const citation = await fileText(request, `${tmpPath}/dchub-queue-${today()}.citation.txt`);
    expect(citation).toContain(body._cite);

    // Insert CSV snapshot (the second choice): a markdown cell with the citation and a pandas loader cell.
    await page.notebook.createNew('dchub-load.ipynb');
    await showViewTab(page, 'DC Hub queue');
    await view(page, 'queue').locator('.jp-DCHub-insert-csv').click();
    await expect.poll(() => page.notebook.getCellCount()).toBe(3);
    // Insertion exports again next to the notebook; the earlier export keeps its name and content.
    const insertedName = `dchub-queue-${today()}-2.csv`;
    const code = await page.notebook.getCellTextInput(2);
    expect(code).toContain(`pd.read_csv("${insertedName}", parse_dates=["queue_date"])`);
    expect(await fileText(request, `${tmpPath}/${csvName}`)).toBe(csv);
    expect(await fileText(request, `${tmpPath}/${insertedName}`)).not.toContain(API_KEY);
    expect(await page.notebook.getCellTextInput(1)).toContain(body._cite);

    await page.notebook.run();
    const output = (await page.notebook.getCellTextOutput(2)) ?? [];
    expect(output.join('\n')).toContain(`(${body.count_returned}, 17)`);

    await page.notebook.save();
    const notebookText = await fileText(request, `${tmpPath}/dchub-load.ipynb`);
    expect(notebookText).toContain('pd.read_csv');
    expect(notebookText).not.toContain(API_KEY);
    expect(await page.content()).not.toContain(API_KEY);
    await page.screenshot({ path: testInfo.outputPath('notebook-inserted.png') });
  });

  test('export commands are in the palette under DC Hub', async ({ page }) => {
    await page.keyboard.press('Control+Shift+C');
    const input = page.locator('.lm-CommandPalette-input');
    await input.fill('DC Hub');
    for (const label of [
      'Refresh market briefs',
      'Export DC Hub table as CSV',
      'Insert DC Hub table in notebook',
      'Score a site'
    ]) {
      await expect(page.locator('.lm-CommandPalette-item', { hasText: label })).toHaveCount(1);
    }
  });
});

test.describe('DC Hub ranking', () => {
  test('ranks the selected queue rows with the default objectives', async ({ page, request }, testInfo) => {
    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption('PJM');
    await panel.locator('input[name="geocoded_only"]').check();
    await panel.locator('input[name="limit"]').fill('10');
    await panel.getByRole('button', { name: 'Search' }).click();
    const results = view(page, 'queue');
    await expect(results.locator('.jp-DCHub-count')).toHaveAttribute('data-count-returned', '10');

    // Select body rows 1-4 of the canvas grid (click, then shift-click).
    const grid = results.locator('.jp-DCHub-grid');
    await grid.scrollIntoViewIfNeeded();
    const box = (await grid.boundingBox())!;
    await page.mouse.click(box.x + 120, box.y + 24 + 11);
    await page.keyboard.down('Shift');
    await page.mouse.click(box.x + 120, box.y + 24 + 3 * 22 + 11);
    await page.keyboard.up('Shift');
    await expect(results.locator('.jp-DCHub-selection')).toHaveAttribute('data-selected', '4');
    await results.getByRole('button', { name: 'Rank selected' }).click();
    await expect(panel.locator('.jp-DCHub-rank-candidates')).toHaveAttribute('data-count', '4');
    await panel.locator('.jp-DCHub-rank-run').click();

    // The same request straight to the sandbox: the first four survivors with their numeric fields.
    const queue = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, {
        headers: KEYED,
        params: { iso: 'PJM', geocoded_only: 'true', limit: 10 }
      })
    ).json()) as { results: Array<Record<string, unknown>> };
    const numeric = ['capacity_mw', 'lat', 'lng', 'fiber_km', 'estimated_ttp_months'];
    const candidates = queue.results.slice(0, 4).map((r) => {
      const c: Record<string, unknown> = { id: r.queue_id };
      for (const k of numeric) if (typeof r[k] === 'number') c[k] = r[k];
      return c;
    });
    const ranked = (await (
      await request.post(`${SANDBOX}/api/v1/rank-sites`, {
        headers: KEYED,
        data: { candidates, objectives: { capacity_mw: 1, estimated_ttp_months: -1, fiber_km: -1 }, top_k: 4 }
      })
    ).json()) as { count_ranked: number; results: Array<{ id: string }> };

    const count = view(page, 'ranking').locator('.jp-DCHub-rank-count');
    await expect(count).toHaveAttribute('data-count-ranked', String(ranked.count_ranked));
    await expect(count).toHaveAttribute('data-ids', ranked.results.map((r) => r.id).join(' '));
    await page.screenshot({ path: testInfo.outputPath('ranking-view.png') });
  });
});

test.describe('DC Hub MCP tools', () => {
  test('lists the 29 tools and shows a tabular answer as a grid', async ({ page }, testInfo) => {
    const panel = await openSection(page, 'Tools');
    await expect(panel.locator('.jp-DCHub-mcp-count')).toHaveAttribute('data-count', '29');
    await panel.locator('select[name="tool"]').selectOption('search_facilities');
    await expect(panel.locator('.jp-DCHub-mcp-fields [name^="arg_"]').first()).toBeAttached();
    await panel.getByRole('button', { name: 'Call tool' }).click();

    const result = view(page, 'mcp').locator('.jp-DCHub-mcp-result');
    await expect(result).toHaveAttribute('data-tool', 'search_facilities');
    await expect(result).toHaveAttribute('data-kind', 'table');
    expect(Number(await result.getAttribute('data-rows'))).toBeGreaterThan(0);
    await expect(panel.locator('.jp-DCHub-mcp-error')).toBeHidden();
    await page.screenshot({ path: testInfo.outputPath('mcp-tool-view.png') });
    expect(await page.content()).not.toContain(API_KEY);
  });
});
