/**
 * Charts in the panel's views, read from the page: the switch, what JupyterLab's Vega-Lite renderer
 * drew (its SVG marks, counted), the warnings the page logged meanwhile, and the screenshots kept
 * for review (test-results/output-<profile>/…).
 */
import { expect, type IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator, TestInfo } from '@playwright/test';

/** What a chart area drew: its data attributes and the marks of its SVG by kind. */
export interface Drawn {
  chart: string;
  rows: number;
  drawn: number;
  /** Marks of the selectable points layer (maps). */
  points: number;
  /** The map points drawn highlighted (selected). */
  highlighted: number;
  /** Bars, points of a scatter, rules: items of each mark type (footer text apart). */
  marks: Record<string, number>;
  /** Distinct bars by their vertical position (a stacked bar is one candidate). */
  barRows: number;
  /** The footer's lines and every other text drawn. */
  texts: string[];
}

/** Messages the page logs as warnings or errors, from now on (Vega and Vega-Lite warn through the console). */
export function watchConsole(page: IJupyterLabPageFixture): { since(): string[] } {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') messages.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  let seen = 0;
  return {
    since: () => {
      const out = messages.slice(seen);
      seen = messages.length;
      return out;
    }
  };
}

/**
 * The main area shows one tab at a time (single-document mode): a view gets the room the launcher
 * took beside it, and the screenshots show charts whole.
 */
export async function singleDocument(page: IJupyterLabPageFixture): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { jupyterapp: { shell: { mode: string } } }).jupyterapp.shell.mode = 'single-document';
  });
}

/** Selects body rows `from`–`to` (1-based, as numbered) of a canvas grid: a click, then a shift-click. */
export async function selectGridRows(
  page: IJupyterLabPageFixture,
  grid: Locator,
  from: number,
  to: number
): Promise<void> {
  const box = (await grid.boundingBox())!;
  const rowY = (n: number) => box.y + 24 + (n - 1) * 22 + 11;
  await page.mouse.click(box.x + 120, rowY(from));
  await page.keyboard.down('Shift');
  await page.mouse.click(box.x + 120, rowY(to));
  await page.keyboard.up('Shift');
}

/** Brings a main-area tab to the front by its widget id (single-document mode shows no tab bar). */
export async function activate(page: IJupyterLabPageFixture, id: string): Promise<void> {
  await page.evaluate((widgetId) => {
    (window as unknown as { jupyterapp: { shell: { activateById(id: string): void } } }).jupyterapp.shell.activateById(
      widgetId
    );
  }, id);
}

/** Switches a view to a chart (or its map) and waits until the renderer has drawn it; returns what it drew. */
export async function showChart(view: Locator, mode: 'chart' | 'map', chart?: string): Promise<Drawn> {
  await view.locator(`.jp-DCHub-show-${mode}`).click();
  await expect(view.locator(`.jp-DCHub-show-${mode}`)).toHaveAttribute('aria-pressed', 'true');
  if (chart && (await view.locator('.jp-DCHub-chart-pick').isVisible()))
    await view.locator('.jp-DCHub-chart-pick').selectOption(chart);
  const area = view.locator('.jp-DCHub-chart');
  if (chart) await expect(area).toHaveAttribute('data-chart', chart, { timeout: 60_000 });
  await expect(area).toHaveAttribute('data-state', 'drawn', { timeout: 60_000 });
  return drawn(area);
}

/** What the chart area shows now. */
export async function drawn(area: Locator): Promise<Drawn> {
  return area.evaluate((el: HTMLElement) => {
    const svg = el.querySelector('.jp-DCHub-chart-render svg');
    const marks: Record<string, number> = {};
    let points = 0;
    let highlighted = 0;
    const barYs = new Set<string>();
    for (const g of svg?.querySelectorAll('g.role-mark') ?? []) {
      const type = [...g.classList].find((c) => c.startsWith('mark-'))?.slice(5) ?? '?';
      // The footer is a text mark of its own view (concat_1); legends and axes are not role-mark.
      if (type === 'text') continue;
      marks[type] = (marks[type] ?? 0) + g.children.length;
      if (g.classList.contains('dchub_points_marks')) {
        points += g.children.length;
        highlighted += [...g.children].filter((p) => p.getAttribute('stroke-width') === '2').length;
      }
      if (type === 'rect')
        for (const p of g.children) barYs.add(/^M[-\d.e]+,([-\d.e]+)/.exec(p.getAttribute('d') ?? '')?.[1] ?? '');
    }
    const d = el.dataset;
    return {
      chart: d.chart ?? '',
      rows: Number(d.rows),
      drawn: Number(d.drawn),
      points,
      highlighted,
      marks,
      barRows: barYs.size,
      texts: [...(svg?.querySelectorAll('text') ?? [])].map((t) => t.textContent ?? '')
    };
  });
}

/**
 * A screenshot of the page, kept beside the other Galata screenshots; with `view`, one of the view
 * from its top to the chart's bottom too (`view-<name>`: the README's pictures are these).
 */
export async function keep(
  page: IJupyterLabPageFixture,
  testInfo: TestInfo,
  name: string,
  view?: Locator
): Promise<void> {
  // No tooltip over the chart.
  await page.mouse.move(1, 1);
  await page.screenshot({ path: testInfo.outputPath(name) });
  if (!view) return;
  const box = (await view.boundingBox())!;
  const chart = (await view.locator('.jp-DCHub-chart-render svg').boundingBox())!;
  await page.screenshot({
    path: testInfo.outputPath(`view-${name}`),
    clip: { x: box.x, y: box.y, width: box.width, height: chart.y + chart.height + 12 - box.y }
  });
}
