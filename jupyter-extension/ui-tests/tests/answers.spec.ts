/**
 * What the panel says about an answer (issue 10), against either sandbox profile: a gated preview
 * described (rows shown of how many, fields withheld, the user's filters not applied), a stale
 * answer with its age and reason, an MCP plan wall as the upgrade message, a partial MCP list
 * marked partial, a CDN's HTML error page as one line. Expectations come from the sandbox's own
 * answers, so each holds for the profile the run uses (PROFILE); where the real service's words
 * differ, the test says so.
 */
import { expect, galata, test, type IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { APIRequestContext, Locator } from '@playwright/test';

import { KEYED, PROFILE, QUEUE_PATH, SANDBOX } from './env';
import { ageStoredAnswers, dchub } from './shared-cache';

const fmt = (n: number) => n.toLocaleString('en-US');

async function openSection(page: IJupyterLabPageFixture, label: 'Queue' | 'Tools'): Promise<Locator> {
  await page.sidebar.openTab('dchub-panel');
  const panel = page.locator('#dchub-panel');
  await panel.locator('.lm-TabBar-tab', { hasText: label }).click();
  return panel;
}

/** Today's keyless calls back to zero, no faults: each test starts from a fresh sandbox day. */
async function freshDay(request: APIRequestContext): Promise<void> {
  expect((await request.delete(`${SANDBOX}/_sandbox/limits`)).ok()).toBe(true);
  expect((await request.delete(`${SANDBOX}/_sandbox/faults`)).ok()).toBe(true);
}

test.describe('keyless, straight to the service (no relay, no key)', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, connection: 'direct', briefsRefreshMinutes: 0 }
    }
  });
  test.beforeEach(async ({ request }) => freshDay(request));

  test("a gated preview's banner says what is withheld, how many rows exist and which of your filters were not applied", async ({
    page,
    request
  }, testInfo) => {
    const panel = await openSection(page, 'Queue');
    await expect(panel.locator('.jp-DCHub-connection')).toHaveAttribute('data-has-key', 'false');
    await panel.locator('select[name="iso"]').selectOption('PJM');
    await panel.locator('input[name="min_mw"]').fill('100');
    await panel.locator('input[name="max_ttp_months"]').fill('48');
    await panel.getByRole('button', { name: 'Search' }).click();

    const results = page.locator('.jp-DCHub-view-queue');
    const count = results.locator('.jp-DCHub-count');
    await expect(count).toBeVisible();
    // The service's own keyless answer to the same question.
    const body = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { params: { iso: 'PJM', min_mw: 100, max_ttp_months: 48 } })
    ).json()) as {
      count_returned: number;
      _total_available: number;
      _locked_fields: string[];
      _preview_params_not_applied: string[];
    };
    expect(body.count_returned).toBe(3);
    const sent = ['iso', 'min_mw', 'max_ttp_months'];
    const notApplied = body._preview_params_not_applied.filter((p) => sent.includes(p)).sort();
    expect(notApplied).toEqual(['max_ttp_months', 'min_mw']);

    const banner = results.locator('.jp-DCHub-queue-banner');
    await expect(banner).toHaveAttribute('data-preview', 'true');
    const preview = banner.locator('.jp-DCHub-banner-preview');
    await expect(preview).toContainText(`Preview: 3 of ${fmt(body._total_available)} rows shown`);
    await expect(preview).toContainText(`withheld: ${[...body._locked_fields].sort().join(', ')}`);
    await expect(preview).toContainText(`your filters ${notApplied.join(', ')} were not applied`);
    // The plan that opens the full answer: a free key at the spec's service, Developer at the real one (notes §2.21).
    await expect(preview).toContainText(
      PROFILE === 'real' ? 'the Developer plan opens the full answer' : 'a free API key opens the full answer'
    );
    await expect(count).toHaveText(`Showing 3 of ${body._total_available} projects`);
    await page.screenshot({ path: testInfo.outputPath('queue-preview-banner.png') });
  });

  test('an MCP plan wall is the upgrade message in the Tools tab, not a table of its fields', async ({
    page
  }, testInfo) => {
    const panel = await openSection(page, 'Tools');
    await expect(panel.locator('.jp-DCHub-mcp-count')).toHaveAttribute('data-count', '29');
    await panel.locator('select[name="tool"]').selectOption('analyze_site');
    await panel.locator('input[name="arg_lat"]').fill('39.04');
    await panel.locator('input[name="arg_lon"]').fill('-77.49');
    await panel.getByRole('button', { name: 'Call tool' }).click();

    const error = panel.locator('.jp-DCHub-mcp-error');
    await expect(error).toBeVisible();
    await expect(error).toHaveAttribute('data-kind', 'auth');
    const text = (await error.textContent()) ?? '';
    expect(text).toMatch(/^analyze_site: /);
    expect(text).toContain('Pro');
    expect(text).toContain('https://dchub.cloud/pricing');
    expect(text).toContain('your plan: anonymous');
    expect(text).not.toMatch(/[\n{}<]/);
    // The real service words its wall for a human (pro_required, for_your_human): its words are kept.
    if (PROFILE === 'real') expect(text).toContain('pro_required');
    // Nothing of the wall was put in a grid.
    await expect(page.locator('.jp-DCHub-view-mcp .jp-DCHub-mcp-result[data-tool="analyze_site"]')).toHaveCount(0);
    await panel.screenshot({ path: testInfo.outputPath('mcp-wall.png') });
  });

  test('a partial MCP list says it is partial and how many rows exist', async ({ page }, testInfo) => {
    const panel = await openSection(page, 'Tools');
    await expect(panel.locator('.jp-DCHub-mcp-count')).toHaveAttribute('data-count', '29');
    await panel.locator('select[name="tool"]').selectOption('search_facilities');
    await panel.getByRole('button', { name: 'Call tool' }).click();

    const result = page.locator('.jp-DCHub-view-mcp .jp-DCHub-mcp-result');
    await expect(result).toHaveAttribute('data-tool', 'search_facilities');
    await expect(result).toHaveAttribute('data-partial', 'true');
    const banner = page.locator('.jp-DCHub-view-mcp .jp-DCHub-mcp-banner');
    await expect(banner).toHaveAttribute('data-preview', 'true');
    const sentence = (await banner.locator('.jp-DCHub-banner-preview').textContent()) ?? '';
    const m = /^Preview: (\d+) of (\d+) rows shown/.exec(sentence);
    expect(m).not.toBeNull();
    const [shown, total] = [Number(m![1]), Number(m![2])];
    expect(total).toBeGreaterThan(shown);
    // Keyless list tools answer 3 rows at the real service (notes §3.1), 2 at the spec's sandbox.
    expect(shown).toBe(PROFILE === 'real' ? 3 : 2);
    await expect(result).toHaveAttribute('data-rows', String(shown));
    await page.screenshot({ path: testInfo.outputPath('mcp-partial.png') });
  });
});

test.describe('through the relay (the server holds a Pro key)', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, briefsRefreshMinutes: 0 }
    }
  });
  test.beforeEach(async ({ request }) => freshDay(request));
  test.afterEach(async ({ request }) => freshDay(request));

  test("a CDN's HTML error page is one line: status, what happened, what to do", async ({ page, request }) => {
    const faults = await request.post(`${SANDBOX}/_sandbox/faults`, {
      data: [{ path_prefix: QUEUE_PATH, kind: 'html_gateway', gateway_status: 524 }]
    });
    expect(faults.ok()).toBe(true);
    const raw = await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'SPP' } });
    expect(raw.status()).toBe(524);
    expect(await raw.text()).toContain('<html');

    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption('SPP');
    await panel.getByRole('button', { name: 'Search' }).click();
    const error = panel.locator('.jp-DCHub-error');
    await expect(error).toBeVisible({ timeout: 60_000 });
    await expect(error).toHaveAttribute('data-kind', 'server');
    const text = (await error.textContent()) ?? '';
    expect(text).toContain('524');
    expect(text).toContain("the service's gateway answered an HTML error page");
    expect(text).not.toMatch(/[<>\n]/);
  });

  test("a failed refresh serves the relay's last answer, marked stale with its age and reason", async ({
    page,
    request
  }, testInfo) => {
    // The CLI on the server's machine asked first: its answer sits in the directory the relay answers from.
    const cli = await dchub(['queue', '--iso', 'NYISO']);
    expect(cli.code).toBe(0);
    const body = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'NYISO' } })
    ).json()) as { count_returned: number };
    // Three hours and the answer's lifetime pass (the stored answer aged by hand); the relay has not
    // read it yet, so the directory is all it has.
    expect(await ageStoredAnswers((key) => key.endsWith(`${QUEUE_PATH}?iso=NYISO`), 3 * 3_600_000)).toBe(1);

    expect(
      (
        await request.post(`${SANDBOX}/_sandbox/faults`, {
          data: [{ path_prefix: QUEUE_PATH, kind: 'status', status: 503 }]
        })
      ).ok()
    ).toBe(true);
    const panel = await openSection(page, 'Queue');
    await panel.locator('select[name="iso"]').selectOption('NYISO');
    await panel.getByRole('button', { name: 'Search' }).click();
    const count = page.locator('.jp-DCHub-view-queue .jp-DCHub-count');
    const banner = page.locator('.jp-DCHub-view-queue .jp-DCHub-queue-banner');
    await expect(banner).toHaveAttribute('data-stale', 'true', { timeout: 60_000 });
    await expect(banner).toHaveAttribute('data-stale-reason', 'service error');
    await expect(banner.locator('.jp-DCHub-banner-stale')).toHaveText(
      /^served from the cache \(3 h( \d+ min)? old\): service error$/
    );
    await expect(count).toHaveAttribute('data-count-returned', String(body.count_returned));
    await expect(panel.locator('.jp-DCHub-error')).toBeHidden();
    await page.screenshot({ path: testInfo.outputPath('queue-stale-banner.png') });
  });
});
