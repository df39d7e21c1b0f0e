/**
 * The panel in relay mode keeps no cache and no ledger of its own: the relay's (the Jupyter server's
 * cache directory and daily ledger, shared with its kernels and the `dchub` CLI) are the only ones.
 * The header shows the relay's calls left, the banners say what the relay's cache did, and a spent
 * allowance is said plainly.
 */
import { expect, galata, test } from '@jupyterlab/galata';
import type { APIRequestContext } from '@playwright/test';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { JUPYTER, KEYED, QUEUE_PATH, SANDBOX } from './env';
import { dchub } from './shared-cache';

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    '@dchub/jupyterlab:plugin': { baseUrl: SANDBOX, briefsRefreshMinutes: 0 }
  }
});

/** The relay's ledger as `GET dchub/quota` answers it (no call spent). */
async function relayQuota(
  request: APIRequestContext
): Promise<{ remaining: number; limit: number; confirmed: boolean }> {
  const res = await request.get(`${JUPYTER}/dchub/quota`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as { remaining: number; limit: number; confirmed: boolean };
}

test.describe("the relay's cache and allowance are the panel's", () => {
  test.beforeEach(async ({ request }) => {
    expect((await request.delete(`${SANDBOX}/_sandbox/faults`)).ok()).toBe(true);
  });

  test("the header shows the relay's calls left, spent by the CLI too; a narrower question comes from the wide answer the CLI cached", async ({
    page,
    request
  }, testInfo) => {
    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    const quota = panel.locator('.jp-DCHub-quota');
    const before = await relayQuota(request);
    await expect(quota).toHaveAttribute('data-remaining', String(before.remaining));
    await expect(quota).toHaveAttribute('data-shared', 'true');
    await expect(quota).toContainText(
      "calls left today (the server's allowance, shared with its kernels and the dchub CLI)"
    );

    // The CLI on the server's machine asks a wide question (every ISO-NE project): a call of the same allowance.
    const cli = await dchub(['queue', '--iso', 'ISO-NE', '--limit', '1000']);
    expect(cli.code).toBe(0);
    const spent = await relayQuota(request);
    expect(spent.remaining).toBeLessThan(before.remaining);

    // The panel's narrower question: the relay answers it from the CLI's wide answer, spending nothing.
    await panel.locator('.lm-TabBar-tab', { hasText: 'Queue' }).click();
    await panel.locator('select[name="iso"]').selectOption('ISO-NE');
    await panel.locator('input[name="min_mw"]').fill('100');
    await panel.getByRole('button', { name: 'Search' }).click();
    const results = page.locator('.jp-DCHub-view-queue');
    const banner = results.locator('.jp-DCHub-queue-banner');
    await expect(banner).toHaveAttribute('data-derived', 'true');
    await expect(banner.locator('.jp-DCHub-banner-derived')).toHaveText(
      /^answered locally from a cached wider answer \(GET \/api\/v1\/interconnection-queue\/refined\?iso=ISO-NE&limit=1000, \d+ (s|min) old\)$/
    );
    await expect(quota).toHaveAttribute('data-remaining', String(spent.remaining));
    expect((await relayQuota(request)).remaining).toBe(spent.remaining);
    // The panel kept nothing: no IndexedDB database of its own in this browser.
    const databases = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
    expect(databases.filter((name) => name.startsWith('dchub'))).toEqual([]);

    // And the derived answer is the service's own answer to the narrower question.
    const own = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'ISO-NE', min_mw: 100 } })
    ).json()) as {
      count_returned: number;
    };
    await expect(results.locator('.jp-DCHub-count')).toHaveAttribute('data-count-returned', String(own.count_returned));
    await page.screenshot({ path: testInfo.outputPath('relay-derived-banner.png') });
  });

  test("the relay's spent allowance is said plainly, and the header says no calls are left", async ({
    page,
    request
  }) => {
    // A call by the CLI makes sure today's ledger of the server's key is written in the shared directory.
    expect((await dchub(['score', '40.1', '-80.1'])).code).toBe(0);
    const ledger = await serverKeyLedger();
    const saved = await readFile(ledger.file, 'utf8');
    try {
      // The service has stated the allowance and it is spent (as after its 429): the relay refuses itself.
      await ledger.write({ used: ledger.state.limit, known: true });
      await page.sidebar.openTab('dchub-panel');
      const panel = page.locator('#dchub-panel');
      await panel.locator('.lm-TabBar-tab', { hasText: 'Queue' }).click();
      await panel.locator('select[name="iso"]').selectOption('CAISO');
      await panel.locator('input[name="min_mw"]').fill('450');
      await panel.getByRole('button', { name: 'Search' }).click();
      const error = panel.locator('.jp-DCHub-error');
      await expect(error).toBeVisible();
      await expect(error).toHaveAttribute('data-kind', 'rate_limit');
      await expect(error).toHaveAttribute('data-daily', 'true');
      await expect(error).toHaveText(/^daily allowance of \d+ calls is spent; it resets at \d{4}-\d\d-\d\dT00:00:00/);
      const quota = panel.locator('.jp-DCHub-quota');
      await expect(quota).toHaveAttribute('data-remaining', '0');
      await expect(quota).toContainText('No calls left today');
    } finally {
      await writeFile(ledger.file, saved);
    }
    expect((await relayQuota(request)).remaining).toBeGreaterThan(0);
  });
});

/** The REST ledger of the server's key in the shared directory (`dchub:quota:<host>:<port>:k<fingerprint>`). */
async function serverKeyLedger() {
  const dir = process.env.DCHUB_GALATA_CACHE_DIR ?? '';
  const port = new URL(SANDBOX).port;
  for (const name of (await readdir(dir)).filter((f) => f.endsWith('.json'))) {
    const file = path.join(dir, name);
    const entry = JSON.parse(await readFile(file, 'utf8')) as { key: string; value: string };
    if (!new RegExp(`^dchub:quota:127\\.0\\.0\\.1:${port}:k[0-9a-z]+$`).test(entry.key)) continue;
    const state = JSON.parse(entry.value) as {
      day: string;
      used: number;
      limit: number;
      tier: string;
      known?: boolean;
    };
    return {
      file,
      state,
      write: (change: Partial<typeof state>) =>
        writeFile(file, JSON.stringify({ key: entry.key, value: JSON.stringify({ ...state, ...change }) }))
    };
  }
  throw new Error(`no ledger of the server's key in ${dir}`);
}
