import { expect, galata, test } from '@jupyterlab/galata';

import { KEYED, QUEUE_PATH, SANDBOX } from './env';

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX }
  }
});

test.describe('DC Hub queue panel', () => {
  test('searches the queue and shows the sandbox counts and citation', async ({ page, request }, testInfo) => {
    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    await expect(panel).toBeVisible();

    await panel.locator('select[name="iso"]').selectOption('PJM');
    await panel.locator('input[name="min_mw"]').fill('100');
    await panel.locator('input[name="max_ttp_months"]').fill('60');
    await panel.getByRole('button', { name: 'Search' }).click();

    const results = page.locator('.jp-DCHub-view-queue');
    const count = results.locator('.jp-DCHub-count');
    await expect(count).toBeVisible();

    // The same query straight from the sandbox (200 is the panel's default row limit).
    const res = await request.get(`${SANDBOX}${QUEUE_PATH}`, {
      headers: KEYED,
      params: { iso: 'PJM', min_mw: 100, max_ttp_months: 60, limit: 200 }
    });
    expect(res.ok()).toBe(true);
    const body = (await res.json()) as { count_returned: number; count_total_matching: number; _cite: string };
    expect(body.count_returned).toBeGreaterThan(0);

    await expect(count).toHaveAttribute('data-count-returned', String(body.count_returned));
    await expect(count).toHaveAttribute('data-count-total', String(body.count_total_matching));
    await expect(count).toHaveText(`Showing ${body.count_returned} of ${body.count_total_matching} projects`);

    const citation = results.locator('.jp-DCHub-citation');
    await expect(citation).toBeVisible();
    await expect(citation).toHaveText(body._cite);

    await expect(panel.locator('.jp-DCHub-error')).toBeHidden();
    await expect(panel.locator('.jp-DCHub-busy')).toBeHidden();
    await expect(panel.getByRole('button', { name: 'Search' })).toBeEnabled();

    // The grid paints on canvas in the main area: check it has room, then keep a screenshot for review.
    const grid = results.locator('.jp-DCHub-grid');
    await expect(grid).toBeVisible();
    const box = await grid.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThan(150);
    await page.screenshot({ path: testInfo.outputPath('queue-view-main-area.png') });
  });

  test('a negative minimum MW shows the min_mw error without crashing', async ({ page }, testInfo) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));

    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    await panel.locator('input[name="min_mw"]').fill('-5');
    await panel.getByRole('button', { name: 'Search' }).click();

    const error = panel.locator('.jp-DCHub-error');
    await expect(error).toBeVisible();
    await expect(error).toContainText('min_mw');
    await expect(error).toHaveAttribute('data-param', 'min_mw');
    await expect(page.locator('.jp-DCHub-view-queue .jp-DCHub-count')).toBeHidden();
    await panel.screenshot({ path: testInfo.outputPath('queue-error.png') });

    // Still alive: a corrected value searches normally and clears the error.
    await panel.locator('input[name="min_mw"]').fill('100');
    await panel.getByRole('button', { name: 'Search' }).click();
    await expect(page.locator('.jp-DCHub-view-queue .jp-DCHub-count')).toBeVisible();
    await expect(error).toBeHidden();
    expect(pageErrors).toEqual([]);
  });
});

test.describe('DC Hub time-to-power hint', () => {
  test('a 30-month cut on PJM: the banner says which ISO it excluded and the service hint; the button asks again', async ({
    page,
    request
  }, testInfo) => {
    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    await panel.locator('select[name="iso"]').selectOption('PJM');
    await panel.locator('input[name="max_ttp_months"]').fill('30');
    await panel.getByRole('button', { name: 'Search' }).click();

    const res = await request.get(`${SANDBOX}${QUEUE_PATH}`, {
      headers: KEYED,
      params: { iso: 'PJM', max_ttp_months: 30, limit: 200 }
    });
    const body = (await res.json()) as {
      count_returned: number;
      isos_excluded_by_ttp: Record<string, number>;
      _error_mitigation?: { deterministic_hint: string; suggested_params?: { max_ttp_months?: number } };
    };
    expect(body.count_returned).toBe(0);
    const hintText = body._error_mitigation!.deterministic_hint;
    const suggested = body._error_mitigation!.suggested_params!.max_ttp_months!;
    expect(hintText).toBeTruthy();

    // One plain line each, in the service's words (core's explanations), in the banner.
    const banner = page.locator('.jp-DCHub-view-queue .jp-DCHub-queue-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toHaveAttribute('data-explanations', '2');
    await expect(banner.locator('.jp-DCHub-banner-explanations li')).toHaveText([
      `excluded by max_ttp_months 30 (average time to power longer): PJM (${body.isos_excluded_by_ttp.PJM} months)`,
      hintText
    ]);
    const apply = page.locator('.jp-DCHub-view-queue .jp-DCHub-hint-apply');
    await expect(apply).toBeVisible();
    await expect(apply).toHaveAttribute('data-value', String(suggested));
    await page.screenshot({ path: testInfo.outputPath('queue-ttp-explanations.png') });

    // The button asks again with the suggested value: rows, and no hint left to apply.
    await apply.click();
    await expect(panel.locator('input[name="max_ttp_months"]')).toHaveValue(String(suggested));
    const again = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, {
        headers: KEYED,
        params: { iso: 'PJM', max_ttp_months: suggested, limit: 200 }
      })
    ).json()) as { count_returned: number };
    expect(again.count_returned).toBeGreaterThan(0);
    await expect(page.locator('.jp-DCHub-view-queue .jp-DCHub-count')).toHaveAttribute(
      'data-count-returned',
      String(again.count_returned)
    );
    await expect(page.locator('.jp-DCHub-view-queue .jp-DCHub-hint')).toBeHidden();
  });

  test('a cut with rows still names the ISO it excluded', async ({ page }) => {
    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    await panel.locator('select[name="iso"]').selectOption(['PJM', 'SPP']);
    await panel.locator('input[name="max_ttp_months"]').fill('30');
    await panel.getByRole('button', { name: 'Search' }).click();
    const banner = page.locator('.jp-DCHub-view-queue .jp-DCHub-queue-banner');
    await expect(banner.locator('.jp-DCHub-banner-explanations li')).toHaveText([
      /^excluded by max_ttp_months 30 \(average time to power longer\): PJM \([\d.]+ months\)$/
    ]);
    await expect(page.locator('.jp-DCHub-view-queue .jp-DCHub-count')).not.toHaveAttribute('data-count-returned', '0');
    await expect(page.locator('.jp-DCHub-view-queue .jp-DCHub-hint')).toBeHidden();
  });
});

test.describe('DC Hub commands', () => {
  test('open-panel is in the palette and search-queue takes arguments', async ({ page, request }) => {
    // Palette entry.
    await page.keyboard.press('Control+Shift+C');
    const paletteInput = page.locator('.lm-CommandPalette-input');
    await expect(paletteInput).toBeVisible();
    await paletteInput.fill('Open DC Hub panel');
    const item = page.locator('.lm-CommandPalette-item', { hasText: 'Open DC Hub panel' });
    await expect(item).toBeVisible();
    await item.click();
    const panel = page.locator('#dchub-panel');
    await expect(panel).toBeVisible();

    // The search command fills the form from its arguments and resolves with the answer.
    const returned = await page.evaluate(async () => {
      const app = (
        window as unknown as { jupyterapp: { commands: { execute(id: string, args?: object): Promise<unknown> } } }
      ).jupyterapp;
      const result = (await app.commands.execute('dchub:search-queue', { iso: 'ERCOT', min_mw: 50 })) as {
        count_returned: number;
      } | null;
      return result?.count_returned ?? null;
    });
    const res = await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'ERCOT', min_mw: 50 } });
    const body = (await res.json()) as { count_returned: number; count_total_matching: number };
    expect(returned).toBe(body.count_returned);
    await expect(panel.locator('select[name="iso"]')).toHaveValues(['ERCOT']);
    await expect(panel.locator('input[name="min_mw"]')).toHaveValue('50');
    await expect(page.locator('.jp-DCHub-view-queue .jp-DCHub-count')).toHaveAttribute(
      'data-count-total',
      String(body.count_total_matching)
    );
  });
});
