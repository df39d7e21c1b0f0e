/**
 * The DC Hub panel as the dchub-*.spec.ts suites drive it: the plugin settings they run with, its
 * sections and result views, the queue's answer as the sandbox gives it, and files read back.
 */
import { expect, galata, type IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { APIRequestContext, Locator } from '@playwright/test';

import { JUPYTER, SANDBOX } from './env';

/** The browser's UTC day, as the panel puts it in export file names. */
export const today = () => new Date().toISOString().slice(0, 10);

/** Galata's settings with the panel on the sandbox and no automatic refresh of the briefs; `extra` on top. */
export function panelSettings(extra: Record<string, unknown> = {}) {
  return {
    ...galata.DEFAULT_SETTINGS,
    '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, ...extra, briefsRefreshMinutes: 0 }
  };
}

/** Opens the DC Hub panel in the sidebar at a section (a tab of its own tab bar). */
export async function openSection(
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
export function view(page: IJupyterLabPageFixture, kind: string): Locator {
  return page.locator(`.jp-DCHub-view-${kind}`);
}

/** Brings a main-area view's tab to the front. */
export async function showViewTab(page: IJupyterLabPageFixture, title: string): Promise<void> {
  await page.locator('#jp-main-dock-panel .lm-TabBar-tab', { hasText: title }).first().click();
}

/** A file's text through the Jupyter Contents API. */
export async function fileText(request: APIRequestContext, path: string): Promise<string> {
  const res = await request.get(`${JUPYTER}/api/contents/${path.split('/').map(encodeURIComponent).join('/')}`, {
    params: { content: 1, type: 'file', format: 'text' }
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { content: string }).content;
}

/** The refined queue's answer, as far as the tests read it. */
export interface QueueBody {
  count_returned: number;
  count_total_matching: number;
  _cite: string;
  _error_mitigation?: { deterministic_hint: string; suggested_params?: { max_ttp_months?: number } };
  results: Array<{
    queue_id: string;
    site_evaluation_handoff?: { analyze_site: { lat: number; lon: number; capacity_mw?: number } } | null;
  }>;
}
