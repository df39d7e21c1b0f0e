import { expect, galata, test, type IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { APIRequestContext, Locator } from '@playwright/test';

import { API_KEY, ENTERPRISE_KEY, JUPYTER, KEYED, PROFILE, QUEUE_PATH, SANDBOX } from './env';

/** The browser's UTC day, as the panel puts it in export file names. */
const today = () => new Date().toISOString().slice(0, 10);

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, briefsRefreshMinutes: 0 }
  }
});

async function openSection(
  page: IJupyterLabPageFixture,
  label: 'Queue' | 'Briefs' | 'Site score' | 'Rank' | 'Tools' | 'More'
): Promise<Locator> {
  await page.sidebar.openTab('dchub-panel');
  const panel = page.locator('#dchub-panel');
  await expect(panel).toBeVisible();
  await panel.locator('.lm-TabBar-tab', { hasText: label }).click();
  return panel;
}

/** A result view in the main area (the grids open there; the sidebar keeps the forms). */
function view(page: IJupyterLabPageFixture, kind: string): Locator {
  return page.locator(`.jp-DCHub-view-${kind}`);
}

/** Brings a main-area view's tab to the front. */
async function showViewTab(page: IJupyterLabPageFixture, title: string): Promise<void> {
  await page.locator('#jp-main-dock-panel .lm-TabBar-tab', { hasText: title }).first().click();
}

/** A file's text through the Jupyter Contents API. */
async function fileText(request: APIRequestContext, path: string): Promise<string> {
  const res = await request.get(`${JUPYTER}/api/contents/${path.split('/').map(encodeURIComponent).join('/')}`, {
    params: { content: 1, type: 'file', format: 'text' }
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { content: string }).content;
}

interface QueueBody {
  count_returned: number;
  count_total_matching: number;
  _cite: string;
  _error_mitigation?: { deterministic_hint: string; suggested_params?: { max_ttp_months?: number } };
  results: Array<{
    queue_id: string;
    site_evaluation_handoff?: { analyze_site: { lat: number; lon: number; capacity_mw?: number } } | null;
  }>;
}

test.describe('DC Hub relay (server extension)', () => {
  test('the panel goes through the Jupyter server, which holds the key', async ({ page, request }) => {
    const config = await request.get(`${JUPYTER}/dchub/config`);
    expect(config.ok()).toBe(true);
    const body = (await config.json()) as Record<string, unknown>;
    expect(body).toEqual({ proxy: true, has_key: true, base_url: SANDBOX, engine: true });
    expect(JSON.stringify(body)).not.toContain(API_KEY);

    // Only the API is relayed.
    expect((await request.get(`${JUPYTER}/dchub/proxy/_sandbox/clock`)).status()).toBe(404);
    expect((await request.get(`${JUPYTER}/dchub/proxy/api/%2e%2e/_sandbox/clock`)).status()).toBe(404);

    await page.sidebar.openTab('dchub-panel');
    const status = page.locator('#dchub-panel .jp-DCHub-connection');
    await expect(status).toHaveAttribute('data-mode', 'proxy');
    await expect(status).toHaveAttribute('data-has-key', 'true');
    await expect(page.locator('#dchub-panel input[name="api_key"]')).toBeHidden();
  });
});

test.describe('DC Hub market briefs', () => {
  test('loads every brief the tier may see, with the verdict grid', async ({ page, request }, testInfo) => {
    await openSection(page, 'Briefs');
    const res = await request.get(`${SANDBOX}/api/v1/market-brief/all`, { headers: KEYED, params: { limit: 500 } });
    expect(res.ok()).toBe(true);
    const body = (await res.json()) as {
      count: number;
      total_available: number;
      tier: string;
      briefs: Array<{ slug: string; ok?: boolean }>;
    };
    expect(body.tier.toLowerCase()).toBe('pro');
    expect(body.count).toBe(body.total_available);
    // The real service fails to build one of the five briefs every tier sees each day (notes §2.29):
    // it is left out of the grid and named beside it. The spec's service builds them all.
    const failed = body.briefs.filter((b) => b.ok === false).map((b) => b.slug);
    expect(failed).toHaveLength(PROFILE === 'real' ? 1 : 0);
    const built = body.count - failed.length;

    const briefs = view(page, 'briefs');
    const count = briefs.locator('.jp-DCHub-briefs-count');
    await expect(count).toHaveAttribute('data-count', String(built));
    const banner = briefs.locator('.jp-DCHub-briefs-banner');
    await expect(banner).toHaveAttribute('data-warnings', String(failed.length));
    for (const slug of failed)
      await expect(banner.locator('.jp-DCHub-banner-warnings li')).toContainText(
        `${slug}: brief failed to build on the service`
      );
    if (!failed.length) await expect(banner).toBeHidden();
    await expect(count).toHaveAttribute('data-tier', body.tier);
    await expect(briefs.locator('.jp-DCHub-briefs-status')).toHaveAttribute('data-offline', 'false');
    await expect(briefs.locator('.jp-DCHub-briefs-citation')).toContainText('DC Hub Power Index');
    await expect(page.locator('.jp-DCHub-quota')).toHaveAttribute('data-remaining', /^\d+$/);

    // The filter narrows the grid; the DOM summary follows.
    const filter = briefs.locator('input.jp-DCHub-briefs-filter');
    await filter.fill('BUILD');
    const shown = Number(await count.getAttribute('data-shown'));
    expect(shown).toBeLessThanOrEqual(body.count);
    await filter.fill('');
    await expect(count).toHaveAttribute('data-shown', String(built));

    await expect(briefs.locator('.jp-DCHub-briefs-grid')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('briefs-view.png') });
  });

  test('refresh after the daily recompute marks the briefs the sandbox reports changed', async ({
    page,
    request
  }, testInfo) => {
    const panel = await openSection(page, 'Briefs');
    const briefs = view(page, 'briefs');
    const count = briefs.locator('.jp-DCHub-briefs-count');
    await expect(count).toHaveAttribute('data-as-of', /.+/);
    const asOf = (await count.getAttribute('data-as-of'))!;

    // Move the sandbox clock a day at a time (each step passes a daily recompute) until the
    // sandbox itself reports briefs recomputed since the panel's as-of.
    let expected: string[] = [];
    for (let day = 0; day < 14 && !expected.length; day++) {
      const clock = await request.post(`${SANDBOX}/_sandbox/clock`, { data: { advance_seconds: 86400 } });
      expect(clock.ok()).toBe(true);
      const diff = await request.get(`${SANDBOX}/api/v1/market-brief/diff`, {
        headers: KEYED,
        params: { since: asOf }
      });
      expect(diff.ok()).toBe(true);
      // A brief the service failed to build (the real service, notes §2.29) changes nothing in the table.
      expected = ((await diff.json()) as { briefs: Array<{ slug: string; ok?: boolean }> }).briefs
        .filter((b) => b.ok !== false)
        .map((b) => b.slug)
        .sort();
    }
    expect(expected.length).toBeGreaterThan(0);

    await panel.getByRole('button', { name: 'Refresh' }).click();
    // The merge moves the as-of to the newest computed_at; then the changed list is final.
    await expect(count).not.toHaveAttribute('data-as-of', asOf);
    const changed = briefs.locator('.jp-DCHub-briefs-changed');

    const marked = ((await changed.getAttribute('data-changed')) ?? '').split(' ').filter(Boolean).sort();
    expect(marked).toEqual(expected);
    await expect(changed).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('briefs-refreshed.png') });
  });
});

test.describe('DC Hub market briefs offline', () => {
  test('a failed refresh keeps the table and marks it offline', async ({ page, request }) => {
    const panel = await openSection(page, 'Briefs');
    const briefs = view(page, 'briefs');
    const count = briefs.locator('.jp-DCHub-briefs-count');
    await expect(count).toHaveAttribute('data-count', /^\d+$/);
    const before = await count.getAttribute('data-count');

    const faults = await request.post(`${SANDBOX}/_sandbox/faults`, {
      data: [{ path_prefix: '/api/v1/market-brief/diff', kind: 'status', status: 503 }]
    });
    expect(faults.ok()).toBe(true);
    try {
      await panel.getByRole('button', { name: 'Refresh' }).click();
      const status = briefs.locator('.jp-DCHub-briefs-status');
      await expect(status).toHaveAttribute('data-offline', 'true', { timeout: 30_000 });
      await expect(status).toContainText('OFFLINE');
      await expect(panel.locator('.jp-DCHub-briefs-error')).toBeVisible();
      await expect(count).toHaveAttribute('data-count', before!);
    } finally {
      await request.delete(`${SANDBOX}/_sandbox/faults`);
    }
  });
});

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

test.describe('DC Hub without the relay (JupyterLite path)', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, connection: 'direct', briefsRefreshMinutes: 0 }
    }
  });

  test('asks for the key in a masked field and keeps it in browser storage only', async ({ page, request }) => {
    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    const status = panel.locator('.jp-DCHub-connection');
    await expect(status).toHaveAttribute('data-mode', 'direct');
    await expect(status).toHaveAttribute('data-has-key', 'false');

    const key = panel.locator('input[name="api_key"]');
    await expect(key).toHaveAttribute('type', 'password');
    await key.fill(API_KEY);
    await panel.getByRole('button', { name: 'Save key' }).click();
    await expect(status).toHaveAttribute('data-has-key', 'true');
    await expect(key).toHaveValue('');
    expect(await page.evaluate(() => window.localStorage.getItem('dchub:apiKey'))).toBe(API_KEY);

    await panel.locator('select[name="iso"]').selectOption('MISO');
    await panel.getByRole('button', { name: 'Search' }).click();
    const body = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'MISO' } })
    ).json()) as QueueBody;
    expect(body.count_returned).toBeGreaterThan(3);
    await expect(view(page, 'queue').locator('.jp-DCHub-count')).toHaveAttribute(
      'data-count-returned',
      String(body.count_returned)
    );

    // The settings hold no key.
    const settings = await request.get(`${JUPYTER}/lab/api/settings/@dchub/jupyterlab:plugin`);
    if (settings.ok()) expect(await settings.text()).not.toContain(API_KEY);

    await panel.getByRole('button', { name: 'Forget key' }).click();
    await expect(status).toHaveAttribute('data-has-key', 'false');
    expect(await page.evaluate(() => window.localStorage.getItem('dchub:apiKey'))).toBeNull();
  });
});

test.describe('DC Hub market briefs in pages (Enterprise, direct)', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, connection: 'direct', briefsRefreshMinutes: 0 }
    }
  });

  test('reads every page of /all, shows the progress after each, and lists each built brief once', async ({
    page,
    request
  }, testInfo) => {
    const served = (await (
      await request.get(`${SANDBOX}/api/v1/market-brief/all`, {
        headers: { 'X-API-Key': ENTERPRISE_KEY },
        params: { limit: 500 }
      })
    ).json()) as { total_available: number; briefs: Array<{ slug: string; ok?: boolean }> };
    expect(served.total_available).toBeGreaterThan(50);
    const built = served.briefs.filter((b) => b.ok !== false).length;
    expect(built).toBe(PROFILE === 'real' ? served.total_available - 1 : served.total_available);

    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    await panel.locator('input[name="api_key"]').fill(ENTERPRISE_KEY);
    await panel.getByRole('button', { name: 'Save key' }).click();
    await expect(panel.locator('.jp-DCHub-connection')).toHaveAttribute('data-has-key', 'true');
    // Every line the busy element shows while the pages are read.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { dchubProgress: string[] }).dchubProgress = seen;
      const busy = document.querySelector('#dchub-panel .jp-DCHub-briefs-busy')!;
      // From the records, not the element: several lines set in one task arrive in one callback.
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.type === 'characterData') seen.push(r.target.textContent ?? '');
          for (const n of Array.from(r.addedNodes)) seen.push(n.textContent ?? '');
        }
      }).observe(busy, { childList: true, characterData: true, subtree: true });
    });
    await panel.locator('.lm-TabBar-tab', { hasText: 'Briefs' }).click();

    const briefs = view(page, 'briefs');
    const count = briefs.locator('.jp-DCHub-briefs-count');
    await expect(count).toHaveAttribute('data-count', String(built));
    await expect(count).toHaveAttribute('data-tier', /enterprise/i);
    const progress = await page.evaluate(() => (window as unknown as { dchubProgress: string[] }).dchubProgress);
    // First page at 50 (the tier is not known yet), the rest at 500: page 1 of 2 after the first.
    // Progress counts the places read (a brief that failed to build still took its place on the page).
    expect(progress).toContain(`Loading briefs: page 1 of 2, 50 of ${served.total_available} briefs…`);
    await expect(panel.locator('.jp-DCHub-briefs-busy')).toBeHidden();
    await page.screenshot({ path: testInfo.outputPath('briefs-enterprise.png') });

    await panel.getByRole('button', { name: 'Forget key' }).click();
    await expect(panel.locator('.jp-DCHub-connection')).toHaveAttribute('data-has-key', 'false');
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
