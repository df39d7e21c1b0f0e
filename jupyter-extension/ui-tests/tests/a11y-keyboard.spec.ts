/**
 * Issue 28, by keyboard and by screen reader: the main flow with the keyboard only (the panel's
 * shortcut, Tab, Enter, the arrow keys — no mouse): queue search of up to 1,000 rows, the results,
 * a cell cursor moved through the rows, the selected site scored, three rows ranked. What a screen
 * reader is given is read from the accessibility tree (getByRole and Playwright's aria snapshot):
 * the grid's size, the focused cell's column name and value, the sort.
 */
import { expect, test, type IJupyterLabPageFixture } from '@jupyterlab/galata';

import { singleDocument } from './chart-view';
import { panelSettings, view } from './panel';

test.use({ viewport: { width: 1280, height: 900 }, mockSettings: panelSettings() });

/** Presses Tab (or Shift+Tab) until the focused element matches `selector`; fails after `max` presses. */
async function tabTo(page: IJupyterLabPageFixture, selector: string, back = false, max = 160): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${max} presses of ${back ? 'Shift+Tab' : 'Tab'} did not reach ${selector}`);
}

/** The accessible name of the grid's active cell (aria-activedescendant), and its row index. */
async function activeCell(page: IJupyterLabPageFixture): Promise<{ name: string; row: string; column: string }> {
  return page.evaluate(() => {
    const grid = document.activeElement!;
    const cell = document.getElementById(grid.getAttribute('aria-activedescendant') ?? '')!;
    return {
      name: cell.getAttribute('aria-label') ?? '',
      row: cell.parentElement!.getAttribute('aria-rowindex') ?? '',
      column: cell.getAttribute('aria-colindex') ?? ''
    };
  });
}

test('keyboard only: queue search, the results, rows, score the selected site, rank', async ({ page }) => {
  test.setTimeout(180_000);
  await singleDocument(page);
  // The panel's shortcut (Alt+Shift+D), then Tab to the Queue form's first field.
  await page.locator('body').press('Alt+Shift+D');
  const panel = page.locator('#dchub-panel');
  await expect(panel).toBeVisible();
  await tabTo(page, '#dchub-panel a.jp-DCHub-skip');
  await tabTo(page, '#dchub-panel input[name="limit"]');
  await page.keyboard.type('1000');
  await tabTo(page, '#dchub-panel input[name="geocoded_only"]');
  await page.keyboard.press('Space');
  // Enter in a field runs the form.
  await tabTo(page, '#dchub-panel input[name="limit"]', true);
  await page.keyboard.press('Enter');
  const results = view(page, 'queue');
  const count = results.locator('.jp-DCHub-count');
  await expect(count).toHaveAttribute('data-count-returned', /^[1-9]\d*$/, { timeout: 90_000 });
  const returned = Number(await count.getAttribute('data-count-returned'));

  // Alt+Shift+R: to the results. The grid is announced with its size; the cursor is on the first cell.
  await page.keyboard.press('Alt+Shift+R');
  const grid = results.getByRole('grid', { name: 'Queue results' });
  await expect(grid).toBeFocused();
  await expect(grid).toHaveAttribute('aria-rowcount', String(returned + 1));
  const headers = await grid.getByRole('columnheader').allTextContents();
  expect(headers.length).toBeGreaterThan(3);
  await expect.poll(async () => (await activeCell(page)).name).toMatch(new RegExp(`^${headers[0]}: `));

  // Down three rows, right two columns: the cursor's cell says its column and value, at row 4 (+ the header row).
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(() => activeCell(page)).toMatchObject({ row: '5', column: '3' });
  const cell = await activeCell(page);
  expect(cell.name.startsWith(`${headers[2]}: `)).toBe(true);
  // The same cell in the accessibility tree: getByRole finds it selected, by that name.
  await expect(grid.getByRole('gridcell', { name: cell.name, selected: true })).toHaveCount(1);
  const snapshot = await grid.ariaSnapshot();
  expect(snapshot).toContain(`gridcell "${cell.name}"`);
  // The rows in view are in the tree (not 0 of a 1,000-row answer), with their indices.
  expect(await grid.getByRole('row').count()).toBeGreaterThan(10);

  // S sorts by the cursor's column: announced through aria-sort.
  await page.keyboard.press('s');
  await expect(grid.getByRole('columnheader', { name: headers[2], exact: true })).toHaveAttribute(
    'aria-sort',
    'ascending'
  );
  await page.keyboard.press('s');
  await page.keyboard.press('s');
  await expect(grid.getByRole('columnheader', { name: headers[2], exact: true })).toHaveAttribute('aria-sort', 'none');

  // Score the selected site: Tab to the button, Enter; the card is drawn in the panel.
  await expect(results.locator('.jp-DCHub-selection')).toHaveAttribute('data-scorable', '1');
  await tabTo(page, '.jp-DCHub-view-queue button.jp-DCHub-handoff');
  await page.keyboard.press('Enter');
  await expect(panel.locator('.jp-DCHub-site-card')).toHaveAttribute('data-score', /\d/, { timeout: 30_000 });

  // Back to the results, three rows selected with Shift+Down, ranked.
  await page.keyboard.press('Alt+Shift+R');
  await expect(grid).toBeFocused();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(results.locator('.jp-DCHub-selection')).toHaveAttribute('data-selected', '3');
  await tabTo(page, '.jp-DCHub-view-queue button.jp-DCHub-rank-selected');
  await page.keyboard.press('Enter');
  await expect(panel.locator('.jp-DCHub-rank-candidates')).toHaveAttribute('data-count', '3');
  await tabTo(page, '#dchub-panel button.jp-DCHub-rank-run', true, 400);
  await page.keyboard.press('Enter');
  const ranking = view(page, 'ranking');
  await expect(ranking.locator('.jp-DCHub-rank-count')).toHaveAttribute('data-count-ranked', /^[1-3]$/, {
    timeout: 30_000
  });
  await expect(ranking.getByRole('grid', { name: 'Ranked sites' })).toHaveAttribute('aria-rowcount', /^[2-4]$/);
});
